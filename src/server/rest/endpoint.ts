import type { z } from "zod";
import type { OrgRole } from "@/generated/prisma/enums";

export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
type RawBodyType =
  "application/gzip" | "multipart/form-data" | "application/x-protobuf" | "application/json";

/**
 * One REST operation, described once: the route handler parses with these schemas and the
 * OpenAPI document is generated from them.
 */
export interface Endpoint<
  P extends z.ZodObject | undefined = z.ZodObject | undefined,
  Q extends z.ZodObject | undefined = z.ZodObject | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType | undefined = z.ZodType | undefined,
> {
  method: HttpMethod;
  /** OpenAPI path template, e.g. `/v2/deployments/{deployment_id}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /**
   * `public` endpoints need no credentials; `listener` ones take only a listener token
   * (Authorization: Bearer, the listener protocol); every other one an API key or a session.
   */
  auth?: "public" | "listener";
  /**
   * The tracing routes only: whether a deployment's ingest key (contract 15.7) may call it
   * ("accepted": the run ingest routes) or is refused with a 403 ("refused"). Unset: the key is
   * unknown here (401), as on every other route.
   */
  ingestKeys?: "accepted" | "refused";
  /** The organization role the caller needs (checked before parsing; stated in OpenAPI). */
  orgRole?: OrgRole;
  params?: P;
  query?: Q;
  body?: B;
  /** A body that is not JSON, streamed by the handler itself (documented, not parsed). */
  rawBody?: {
    type: RawBodyType | RawBodyType[];
    description: string;
  };
  /** A JSON body's limit when it is not the API's 1 MiB (the tracing ingest routes). */
  maxBodyBytes?: number;
  response?: R;
  /**
   * The answer can last (an event stream, a long poll): it ends when the caller's credential
   * does (long-lived.ts).
   */
  longLived?: true;
  /** The success body's media type when it is not JSON (e.g. a server-sent event stream). */
  responseType?:
    | "text/event-stream"
    | "application/x-pem-file"
    | "application/gzip"
    | "application/octet-stream"
    | "text/plain";
  status: 200 | 201 | 202 | 204 | 303;
  /** Error statuses this operation can answer with, besides 401/422/429/500 which all have. */
  errors: number[];
  /** Extra documented success statuses (e.g. 207 for a partial bulk delete). */
  alsoReturns?: { status: number; description: string }[];
  /** Request/response headers this operation reads or sets (documented in OpenAPI). */
  headers?: { ifMatch?: boolean; etag?: boolean; lastEventId?: boolean };
}

export function defineEndpoint<
  P extends z.ZodObject | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends z.ZodType | undefined = undefined,
>(endpoint: Endpoint<P, Q, B, R>): Endpoint<P, Q, B, R> {
  return endpoint;
}
