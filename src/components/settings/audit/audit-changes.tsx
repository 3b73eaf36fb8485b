type Change = { from: unknown; to: unknown };

const show = (v: unknown) =>
  v === null || v === undefined ? "none" : typeof v === "string" ? v : JSON.stringify(v);

/** The changes an event recorded: `changes` by path, or a top-level from/to (roles). */
function changesOf(data: unknown): [string, Change][] {
  if (typeof data !== "object" || data === null) return [];
  const d = data as Record<string, unknown>;
  if (typeof d.changes === "object" && d.changes !== null)
    return Object.entries(d.changes as Record<string, Change>);
  if ("from" in d && "to" in d) return [["role", { from: d.from, to: d.to }]];
  return [];
}

/** What changed, one "field: before → after" per line; secrets are never recorded. */
export function AuditChanges({ event }: { event: { data?: unknown } }) {
  const changes = changesOf(event.data);
  const fields = (event.data as { fields?: unknown } | null)?.fields;
  if (changes.length === 0) {
    if (Array.isArray(fields) && fields.length)
      return <span className="text-xs">Changed {fields.join(", ")}</span>;
    return <span className="text-zinc-500 dark:text-zinc-400">—</span>;
  }
  const others = Array.isArray(fields)
    ? fields.filter((f) => typeof f === "string" && !changes.some(([p]) => p.startsWith(f)))
    : [];
  return (
    <ul aria-label="Changes" className="space-y-1 text-xs">
      {changes.map(([path, c]) => (
        <li key={path} className="[overflow-wrap:anywhere]">
          <span className="font-medium">{path}</span>:{" "}
          <del className="text-red-700 dark:text-red-300">{show(c.from)}</del>
          {" → "}
          <ins className="text-emerald-800 no-underline dark:text-emerald-300">{show(c.to)}</ins>
        </li>
      ))}
      {others.length > 0 && <li>Also changed {others.join(", ")}</li>}
    </ul>
  );
}
