import type { Listener } from "@/generated/prisma/client";
import { MISSING_CREDENTIALS, type Actor } from "@/server/auth/actor";
import {
  watchCredential,
  type Credential,
  type CredentialWatch,
} from "@/server/auth/credential-watch";
import { AppError } from "@/server/errors";
import { appErrorBody } from "./responses";

// Long-lived answers (endpoints declared `longLived`) last only as long as their credential
// (auth/credential-watch.ts): a long poll then answers the error a new request would get; an
// event stream sends a last `event: unauthorized` whose data is that error's body, and closes.

/** What the request authenticated with, to be checked again while its answer lasts. */
export function credentialOf(
  headers: Headers,
  actor: Actor | null,
  listener: Listener | null,
): Credential {
  if (listener) return { kind: "listener", listenerId: listener.id, tokenHash: listener.tokenHash };
  const key = headers.get("x-api-key");
  if (actor?.kind === "api_key" && key)
    return { kind: "api_key", key, tenantId: headers.get("x-tenant-id") };
  if (actor?.kind === "user" && actor.userId && actor.sessionId)
    return {
      kind: "session",
      sessionId: actor.sessionId,
      userId: actor.userId,
      workspaceId: actor.workspaceId,
    };
  throw new AppError("unauthorized", MISSING_CREDENTIALS);
}

/** Runs a long-lived handler with a signal that also aborts when the credential ends. */
export async function whileCredentialHolds<T>(
  credential: Credential,
  client: AbortSignal,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T | Response> {
  const watch = watchCredential(credential, client);
  let result: T;
  try {
    result = await run(watch.signal);
    if (watch.ended) throw watch.ended;
  } catch (error) {
    watch.stop();
    throw watch.ended ?? error;
  }
  if (result instanceof Response && result.body) return streamedWhileHolds(result, watch);
  watch.stop();
  return result;
}

/** The stream as it was, plus the last event when the credential ended it. */
function streamedWhileHolds(response: Response, watch: CredentialWatch): Response {
  const reader = response.body!.getReader();
  const events = response.headers.get("content-type")?.startsWith("text/event-stream");
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await reader.read();
        if (!done) return controller.enqueue(value);
        const ended = watch.ended;
        if (ended && events)
          controller.enqueue(
            new TextEncoder().encode(
              `event: unauthorized\ndata: ${JSON.stringify(appErrorBody(ended))}\n\n`,
            ),
          );
        watch.stop();
        controller.close();
      } catch (error) {
        watch.stop();
        controller.error(error);
      }
    },
    cancel(reason) {
      watch.stop();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
}
