// One JSON line per event on stdout/stderr. Never pass request bodies or secrets here.
type Fields = Record<string, unknown>;

function write(level: "info" | "warn" | "error", message: string, fields: Fields = {}) {
  const line = JSON.stringify({ level, time: new Date().toISOString(), message, ...fields });
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}

export const log = {
  info: (message: string, fields?: Fields) => write("info", message, fields),
  warn: (message: string, fields?: Fields) => write("warn", message, fields),
  error: (message: string, fields?: Fields) => write("error", message, fields),
};

/** An error's name and message only: stacks and causes can carry SQL or values. */
export function describeError(error: unknown): Fields {
  if (error instanceof Error)
    return { error: error.name, error_message: error.message.slice(0, 500) };
  return { error: String(error).slice(0, 500) };
}
