"use client";

import { Check, Copy } from "lucide-react";
import { useEffect, useState } from "react";
import { toast } from "@/components/ui/toast";
import { Button } from "./button";

/**
 * Copies text to the clipboard and says so, for screen readers too. `name`, when given, is the
 * accessible name where the visible label alone would not say what is copied.
 */
export function CopyButton({
  text,
  label = "Copy",
  name,
}: {
  text: string;
  label?: string;
  name?: string;
}) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      toast.error("Could not copy: select the text and copy it by hand.");
    }
  };

  return (
    <Button
      variant="secondary"
      size="sm"
      onClick={copy}
      aria-label={copied ? "Copied" : (name ?? label)}
    >
      {copied ? <Check aria-hidden className="size-4" /> : <Copy aria-hidden className="size-4" />}
      <span aria-live="polite">{copied ? "Copied" : label}</span>
    </Button>
  );
}
