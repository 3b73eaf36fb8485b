"use client";

import { SearchIcon } from "@/components/ui/icons";
import { useEffect, useRef, useState } from "react";
import { Input } from "@/components/ui/input";

/** A text filter that writes to the URL 300 ms after typing stops. */
export function TextFilter({
  id,
  label,
  placeholder,
  value,
  onChange,
  icon = false,
  className,
}: {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  icon?: boolean;
  className?: string;
}) {
  const [text, setText] = useState(value);
  const input = useRef<HTMLInputElement>(null);

  // Follow the URL (back/forward) unless the user is typing here.
  useEffect(() => {
    if (document.activeElement !== input.current) setText(value);
  }, [value]);

  useEffect(() => {
    if (text.trim() === value) return;
    const timer = setTimeout(() => onChange(text.trim()), 300);
    return () => clearTimeout(timer);
  }, [text, value, onChange]);

  return (
    <div className={className}>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <div className="relative">
        {icon && (
          <SearchIcon
            aria-hidden
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-zinc-400"
          />
        )}
        <Input
          ref={input}
          id={id}
          type="search"
          placeholder={placeholder}
          value={text}
          onChange={(e) => setText(e.target.value)}
          className={icon ? "pl-9" : undefined}
        />
      </div>
    </div>
  );
}
