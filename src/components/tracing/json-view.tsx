"use client";

import { useState } from "react";

// A run's inputs, outputs and metadata as collapsible JSON, rendered as text (React escapes
// every value; nothing is parsed as HTML). Large payloads are paged: an object or list shows
// PAGE entries at a time and a long string its first STRING_CHARS characters, each with
// "Show more", so a multi-megabyte output never renders whole.

const PAGE = 50;
const STRING_CHARS = 2000;
/** Levels below this open collapsed (a chat input's messages show their text). */
const OPEN_DEPTH = 3;

const more =
  "mt-1 rounded-sm text-xs font-medium text-blue-700 underline underline-offset-2 hover:text-blue-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-blue-400 dark:hover:text-blue-300";

function LongString({ value }: { value: string }) {
  const [shown, setShown] = useState(STRING_CHARS);
  const cut = value.length > shown;
  return (
    <span className="break-words whitespace-pre-wrap text-emerald-800 dark:text-emerald-300">
      &quot;{cut ? value.slice(0, shown) : value}
      {cut ? "…" : '"'}
      {cut && (
        <>
          {" "}
          <button type="button" className={more} onClick={() => setShown((n) => n * 4)}>
            Show more ({(value.length - shown).toLocaleString("en")} more characters)
          </button>
        </>
      )}
    </span>
  );
}

function Leaf({ value }: { value: unknown }) {
  if (typeof value === "string") return <LongString value={value} />;
  if (value === null) return <span className="text-zinc-500 dark:text-zinc-400">null</span>;
  if (typeof value === "number" || typeof value === "boolean")
    return <span className="text-blue-800 dark:text-blue-300">{String(value)}</span>;
  return <span>{JSON.stringify(value)}</span>;
}

function Branch({ label, value, depth }: { label: string | null; value: object; depth: number }) {
  const [shown, setShown] = useState(PAGE);
  const isList = Array.isArray(value);
  const entries: [string, unknown][] = isList
    ? (value as unknown[]).map((v, i) => [String(i), v])
    : Object.entries(value);
  const n = entries.length;
  const summary = isList
    ? `[${n} ${n === 1 ? "item" : "items"}]`
    : `{${n} ${n === 1 ? "key" : "keys"}}`;
  if (entries.length === 0)
    return (
      <div>
        {label !== null && <span className="text-zinc-600 dark:text-zinc-400">{label}: </span>}
        <span>{isList ? "[]" : "{}"}</span>
      </div>
    );
  return (
    <details open={depth < OPEN_DEPTH} className="group">
      <summary className="cursor-pointer rounded-sm focus-visible:outline-2 focus-visible:outline-blue-600">
        {label !== null && <span className="text-zinc-600 dark:text-zinc-400">{label}: </span>}
        <span className="text-zinc-500 dark:text-zinc-400">{summary}</span>
      </summary>
      <ul className="ml-4 border-l border-zinc-200 pl-3 dark:border-zinc-700">
        {entries.slice(0, shown).map(([key, child]) => (
          <li key={key}>
            <Node label={key} value={child} depth={depth + 1} />
          </li>
        ))}
      </ul>
      {entries.length > shown && (
        <button type="button" className={`${more} ml-7`} onClick={() => setShown((n) => n + PAGE)}>
          Show {Math.min(PAGE, entries.length - shown)} more of {entries.length - shown}
        </button>
      )}
    </details>
  );
}

function Node({ label, value, depth }: { label: string | null; value: unknown; depth: number }) {
  if (value !== null && typeof value === "object")
    return <Branch label={label} value={value} depth={depth} />;
  return (
    <div>
      {label !== null && <span className="text-zinc-600 dark:text-zinc-400">{label}: </span>}
      <Leaf value={value} />
    </div>
  );
}

/** A JSON value as a collapsible tree of text. */
export function JsonView({ value, label }: { value: unknown; label: string }) {
  return (
    <div
      role="group"
      aria-label={label}
      className="max-h-[32rem] overflow-auto rounded-md border border-zinc-200 bg-zinc-50 p-3 font-mono text-xs leading-5 dark:border-zinc-800 dark:bg-zinc-950"
    >
      <Node label={null} value={value} depth={0} />
    </div>
  );
}
