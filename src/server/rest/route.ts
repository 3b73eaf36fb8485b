import { readBodyUpTo } from "@/server/limited-body";
import { requestIdFrom } from "@/server/request-id";
import type { NextRequest } from "next/server";
import type { z } from "zod";
import { MISSING_CREDENTIALS, requireOrgRole, type Actor } from "@/server/auth/actor";
import { createRestContext, createTracingContext } from "@/server/context";
import type { Listener } from "@/generated/prisma/client";
import { listenerFromToken } from "@/server/auth/listener-tokens";
import { getDb, type Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { Endpoint, HttpMethod } from "./endpoint";
import { refuseEncodedBody } from "./content-encoding";
import { credentialOf, whileCredentialHolds } from "./long-lived";
import { errorResponse, jsonResponse } from "./responses";
import { publicOrigin } from "@/server/public-origin";
import { isCrossSite } from "@/server/same-origin";
import { shutdownSignal } from "@/server/shutdown";
import { parseJson, parseOrThrow } from "@/server/validation";

export const MAX_BODY_BYTES = 1024 * 1024;

type Out<T> = T extends z.ZodType ? z.output<T> : undefined;
type Part<E, K extends "params" | "query" | "body" | "response"> =
  E extends Endpoint<infer P, infer Q, infer B, infer R>
    ? { params: P; query: Q; body: B; response: R }[K]
    : never;

export interface HandlerArgs<E extends Endpoint> {
  db: Db;
  /** Aborted when the client goes away, or (`longLived` endpoints) the credential ends. */
  signal: AbortSignal;
  actor: Actor;
  /** The calling listener, for `auth: "listener"` endpoints (then there is no actor). */
  listener: Listener;
  params: Out<Part<E, "params">>;
  query: Out<Part<E, "query">>;
  body: Out<Part<E, "body">>;
  headers: Headers;
  requestId: string;
  /** Where clients reach Hangar, for URLs handed out (upload URLs, OAuth redirect URIs). */
  origin: string;
  /** The request itself, for the few operations that stream a body that is not JSON. */
  request: NextRequest;
}

/**
 * What a handler may return: the response body, or a body with a status and headers, or a
 * ready Response (a stream; it must set X-Request-Id itself).
 */
export type HandlerResult<E extends Endpoint> =
  | (Part<E, "response"> extends z.ZodType ? z.input<Part<E, "response">> : void)
  | { $status: number; $headers?: Record<string, string>; body: unknown }
  | Response;

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };
export type RouteHandler = (req: NextRequest, ctx: RouteContext) => Promise<Response>;

/**
 * The REST door: authenticate -> parse path, query and body -> call the service -> JSON.
 * Handlers hold no logic; every error becomes the contract's body in `errorResponse`.
 */
export function route<E extends Endpoint>(
  endpoint: E,
  handler: (args: HandlerArgs<E>) => Promise<HandlerResult<E>>,
): RouteHandler {
  return async (req, routeCtx) => {
    const requestId = requestIdFrom(req.headers);
    try {
      const context =
        endpoint.auth === "public" || endpoint.auth === "listener"
          ? { db: getDb(), requestId, actor: null }
          : endpoint.ingestKeys
            ? await createTracingContext(req.headers, requestId, endpoint.ingestKeys)
            : await createRestContext(req.headers, requestId);
      const actor = context.actor;
      const listener =
        endpoint.auth === "listener"
          ? await listenerFromToken(context.db, req.headers.get("authorization"))
          : null;
      if (!actor && !listener && endpoint.auth !== "public")
        throw new AppError("unauthorized", MISSING_CREDENTIALS);
      if (actor && endpoint.orgRole) requireOrgRole(actor, endpoint.orgRole);
      if (actor?.kind === "user" && endpoint.method !== "GET") assertSameOrigin(req);
      // Credentials first: an anonymous caller learns nothing about bodies (415/413/422).
      const rawBody = endpoint.body
        ? await readJsonBody(req, endpoint.maxBodyBytes ?? MAX_BODY_BYTES)
        : undefined;

      const rawParams = await routeCtx.params;
      const params = endpoint.params ? parseOrThrow("path", endpoint.params, rawParams) : undefined;
      const query = endpoint.query
        ? parseOrThrow("query", endpoint.query, Object.fromEntries(req.nextUrl.searchParams))
        : undefined;
      const body = endpoint.body ? parseOrThrow("body", endpoint.body, rawBody) : undefined;

      const args: Omit<HandlerArgs<E>, "signal"> = {
        db: context.db,
        actor: actor as Actor,
        listener: listener as Listener,
        params: params as HandlerArgs<E>["params"],
        query: query as HandlerArgs<E>["query"],
        body: body as HandlerArgs<E>["body"],
        headers: req.headers,
        requestId,
        origin: publicOrigin(req),
        request: req,
      };
      const result = endpoint.longLived
        ? await whileCredentialHolds(
            credentialOf(req.headers, actor, listener),
            // A long-lived answer also ends when the server stops (shutdown.ts).
            AbortSignal.any([req.signal, shutdownSignal()]),
            (signal) => handler({ ...args, signal }),
          )
        : await handler({ ...args, signal: req.signal });
      if (result instanceof Response) return result;
      if (result && typeof result === "object" && "$status" in result) {
        return jsonResponse(result.body, result.$status, requestId, result.$headers);
      }
      return jsonResponse(endpoint.status === 204 ? undefined : result, endpoint.status, requestId);
    } catch (error) {
      return errorResponse(error, requestId, { method: endpoint.method, path: endpoint.path });
    }
  };
}

/** Fills every method a path does not implement with a 405 that names the ones it does. */
export function methods(
  handlers: Partial<Record<HttpMethod, RouteHandler>>,
): Record<HttpMethod, RouteHandler> {
  const allow = Object.keys(handlers).join(", ");
  const notAllowed: RouteHandler = async (req) => {
    const requestId = requestIdFrom(req.headers);
    return errorResponse(
      new AppError("method_not_allowed", "Method Not Allowed"),
      requestId,
      {},
      { Allow: allow },
    );
  };
  return {
    GET: handlers.GET ?? notAllowed,
    POST: handlers.POST ?? notAllowed,
    PATCH: handlers.PATCH ?? notAllowed,
    PUT: handlers.PUT ?? notAllowed,
    DELETE: handlers.DELETE ?? notAllowed,
  };
}

async function readJsonBody(req: NextRequest, max: number): Promise<unknown> {
  refuseEncodedBody(req.headers);
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > max) throw new AppError("payload_too_large", tooLargeMessage(max));
  const type = req.headers.get("content-type") ?? "";
  const body = await readBodyUpTo(req, max);
  if (body === null) throw new AppError("payload_too_large", tooLargeMessage(max));
  const text = body.toString("utf8");
  if (text.trim() === "" && !type) return undefined;
  if (!/^application\/([\w.+-]*\+)?json\b/i.test(type.trim())) {
    throw new AppError(
      "unsupported_media_type",
      "Request body must be JSON (Content-Type: application/json)",
    );
  }
  return parseJson(text);
}

const tooLargeMessage = (max: number) =>
  max === MAX_BODY_BYTES
    ? "Request body is larger than 1 MiB"
    : `Request body is larger than ${max} bytes`;

/** Reads the body, stopping as soon as it passes the limit (Content-Length can lie or be absent). */
export async function readLimited(req: NextRequest): Promise<string> {
  return (await readLimitedBytes(req)).toString("utf8");
}

/** The body's exact bytes (a signature covers bytes, not their UTF-8 decoding), size-limited. */
export async function readLimitedBytes(req: NextRequest): Promise<Buffer> {
  const body = await readBodyUpTo(req, MAX_BODY_BYTES);
  if (body === null) throw new AppError("payload_too_large", "Request body is larger than 1 MiB");
  return body;
}

/** Cookie-authenticated writes must come from our own pages (CSRF). */
function assertSameOrigin(req: NextRequest): void {
  if (isCrossSite(req.headers))
    throw new AppError("forbidden", "Cross-site requests cannot use a browser session");
}
