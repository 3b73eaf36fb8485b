import type { LogEntry } from "@/schemas/deploy-logs";

// The level and message of a line an agent server printed. Structured (JSON) lines carry them
// (`level`/`levelname`/`severity`, `message`/`msg`/`event`); plain lines name a level near their
// start ("ERROR ...", "[warning]", "2026-11-26 10:00:00 INFO ..."); anything else is INFO.

type Level = LogEntry["level"];

const words: Record<string, Level> = {
  debug: "DEBUG",
  trace: "DEBUG",
  info: "INFO",
  notice: "INFO",
  warn: "WARNING",
  warning: "WARNING",
  error: "ERROR",
  err: "ERROR",
  critical: "CRITICAL",
  fatal: "CRITICAL",
  panic: "CRITICAL",
};

const PLAIN = /\b(debug|trace|info|notice|warn|warning|error|err|critical|fatal|panic)\b/i;

function structured(text: string): Record<string, unknown> | null {
  if (!text.startsWith("{")) return null;
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

export function levelOf(text: string): Level {
  const json = structured(text);
  if (json) {
    const named = json.level ?? json.levelname ?? json.severity;
    return (typeof named === "string" && words[named.toLowerCase()]) || "INFO";
  }
  const match = PLAIN.exec(text.slice(0, 48));
  return (match && words[match[1]!.toLowerCase()]) || "INFO";
}

export function messageOf(text: string): string {
  const json = structured(text);
  const said = json && (json.message ?? json.msg ?? json.event);
  return typeof said === "string" ? said : text;
}
