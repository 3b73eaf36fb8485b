import { feedbackCreateBody } from "@/schemas/tracing";
import type { Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { parseOrThrow } from "@/server/validation";
import { createFeedback } from "./feedback";
import { ingestRuns, type IngestIssue, type IngestOutcome, type RunOp } from "./ingest";

// A whole ingest batch (multipart or JSON): runs, then the feedback that may name them. Each
// item stands alone: the refused ones come back as issues, the others are stored.

export interface FeedbackOp {
  loc: (string | number)[];
  value: unknown;
}

export async function ingestBatch(
  db: Db,
  actor: Actor,
  batch: { runs: RunOp[]; feedback: FeedbackOp[] },
): Promise<IngestOutcome> {
  const outcome = await ingestRuns(db, actor, batch.runs);
  const issues: IngestIssue[] = [...outcome.issues];
  let accepted = outcome.accepted;
  for (const op of batch.feedback) {
    // An ingest key writes runs only (contract 15.7): its feedback parts are refused alone.
    if (actor.ingest) {
      issues.push({
        loc: op.loc,
        msg: "A deployment's ingest key cannot write feedback",
        type: "forbidden",
        status: 403,
      });
      continue;
    }
    try {
      await createFeedback(db, actor, parseOrThrow("body", feedbackCreateBody, op.value));
      accepted++;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.issues)
        for (const i of error.issues)
          issues.push({ ...i, loc: [...op.loc, ...i.loc.slice(1)], status: 422 });
      else
        issues.push({
          loc: op.loc,
          msg: error.message,
          type: error.code,
          status: error.status === 404 || error.status === 409 ? error.status : 422,
        });
    }
  }
  return { accepted, issues };
}
