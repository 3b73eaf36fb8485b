import type { WaitResult } from "@/schemas/agent-auth";
import type { Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { requireTokenWriter } from "./context";
import { subscribe } from "./flow-events";
import { accessTokenOf } from "./token-store";

// GET /v2/auth/wait/{auth_id}: answers as soon as the flow finishes (woken by NOTIFY), or when
// the timeout passes. Another workspace's flow is not_found, exactly like an unknown one; so is
// another user's flow for a dashboard session (a session acts only for its own user, as in
// context.ts; an agent's API key acts for any user of its workspace).

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function flowOutcome(db: Db, actor: Actor, authId: string): Promise<WaitResult | null> {
  const flow = await db.oAuthFlow.findFirst({
    where: {
      id: authId,
      workspaceId: actor.workspaceId,
      ...(actor.kind === "user" ? { userId: actor.userId! } : {}),
    },
  });
  if (!flow) return { status: "not_found", token: null, error: null };
  if (flow.status === "failed") return { status: "failed", token: null, error: flow.error };
  if (flow.status !== "completed" || !flow.tokenId) return null;
  const token = await db.oAuthToken.findUnique({ where: { id: flow.tokenId } });
  if (!token) return { status: "not_found", token: null, error: null };
  return { status: "completed", token: accessTokenOf(token), error: null };
}

export async function waitForFlow(
  db: Db,
  actor: Actor,
  authId: string,
  timeoutSeconds: number,
  signal?: AbortSignal,
): Promise<WaitResult> {
  requireTokenWriter(actor);
  if (!UUID.test(authId)) return { status: "not_found", token: null, error: null };
  const deadline = Date.now() + timeoutSeconds * 1000;
  const events = await subscribe(authId);
  try {
    for (;;) {
      const outcome = await flowOutcome(db, actor, authId);
      if (outcome) return outcome;
      const left = deadline - Date.now();
      if (timeoutSeconds === 0) return { status: "pending", token: null, error: null };
      if (left <= 0 || signal?.aborted) return { status: "timeout", token: null, error: null };
      await events.next(left, signal);
    }
  } finally {
    events.close();
  }
}
