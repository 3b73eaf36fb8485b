"use client";

import { Check, Copy } from "lucide-react";
import Link from "next/link";
import { useEffect, useState } from "react";
import { toast } from "./toast";

/**
 * An identifier shown whole (time-ordered UUIDs share their first characters), in a monospace
 * chip with a copy button, linked to its page when it has one. `label` names what it identifies,
 * for the copy button's accessible name ("Copy integration ID").
 */
export function IdChip({ id, label, href }: { id: string; label: string; href?: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(id);
      setCopied(true);
    } catch {
      toast.error("Could not copy: select the text and copy it by hand.");
    }
  };
  const text = "font-mono text-xs break-all";
  return (
    <span className="inline-flex max-w-full items-center gap-1 rounded-md bg-zinc-100 py-0.5 pr-0.5 pl-2 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">
      {href ? (
        <Link href={href} className={`${text} underline-offset-2 hover:underline`}>
          {id}
        </Link>
      ) : (
        <span className={text}>{id}</span>
      )}
      <button
        type="button"
        onClick={copy}
        aria-label={copied ? `Copied ${label} ID` : `Copy ${label} ID`}
        title={copied ? "Copied" : "Copy"}
        className="shrink-0 rounded p-1 text-zinc-500 hover:bg-zinc-200 hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-zinc-400 dark:hover:bg-zinc-700 dark:hover:text-zinc-100"
      >
        {copied ? (
          <Check aria-hidden className="size-3.5" />
        ) : (
          <Copy aria-hidden className="size-3.5" />
        )}
      </button>
    </span>
  );
}
