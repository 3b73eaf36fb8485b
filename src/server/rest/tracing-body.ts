import { AppError } from "@/server/errors";
import type { IngestOutcome } from "@/server/services/tracing/ingest";

// Answers of the tracing ingest routes, per item. JSON bodies are read by route.ts with the
// endpoint's maxBodyBytes (and refused when compressed: content-encoding.ts).

/**
 * A batch's answer: 202 when everything was stored; else 413 when a part was too large, 422
 * otherwise, naming each refused item (the others were stored: a retry stores nothing twice).
 * Never 404 (the SDK takes a 404 from multipart ingest for "no multipart here").
 */
export function batchAnswer(outcome: IngestOutcome) {
  const { issues } = outcome;
  if (issues.length === 0) return { $status: 202, body: { accepted: outcome.accepted } };
  const large = issues.filter((i) => i.status === 413);
  if (large.length > 0) {
    const others = issues.length - large.length;
    throw new AppError(
      "payload_too_large",
      `${large.map((i) => i.msg).join("; ")}. The other parts were stored${others ? `, except ${others} refused for other reasons (send them alone to see why)` : ""}.`,
    );
  }
  throw new AppError(
    "validation",
    "Some runs were refused; the others were stored",
    issues.map(({ loc, msg, type }) => ({ loc, msg, type })),
  );
}

/** A single run's answer: its own issue's status (403, 404, 409, 413, 422). */
export function singleAnswer(outcome: IngestOutcome) {
  const [first] = outcome.issues;
  if (!first) return { $status: 202, body: {} };
  if (first.status === 422)
    throw new AppError(
      "validation",
      first.msg,
      outcome.issues.map(({ loc, msg, type }) => ({ loc, msg, type })),
    );
  const code = (
    { 403: "forbidden", 404: "not_found", 409: "conflict", 413: "payload_too_large" } as const
  )[first.status];
  throw new AppError(code, first.msg);
}
