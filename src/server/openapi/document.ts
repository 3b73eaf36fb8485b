import { z } from "zod";
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
} from "zod-openapi";
import packageJson from "../../../package.json" with { type: "json" };
import { errorBody, validationErrorBody } from "@/schemas/common";
import type { Endpoint } from "@/server/rest/endpoint";
import { endpointGroups } from "@/server/rest/endpoints";

// The OpenAPI 3.1 document, generated from the same endpoint declarations and zod schemas that
// validate requests, so the two cannot drift.

const errorDescriptions: Record<number, string> = {
  400: "A semantic rule was broken (e.g. a field the source does not allow, an immutable field changed)",
  401: "Missing or invalid credentials",
  403: "Valid credentials without the right (viewer keys may only read), or no workspace specified",
  404: "Not found (also another workspace's or organization's object)",
  409: "Name or id conflict",
  412: "If-Match does not match the current ETag",
  413: "Body over 1 MiB (an upload: over its limit)",
  415: "Body that is not JSON (an upload: not application/gzip)",
  429: "Rate limit exceeded",
  500: "Internal server error (the X-Request-Id links it to the log)",
  502: "An upstream (code host, OAuth provider, MCP server) failed or refused; the message names the step",
  503: "The database is unreachable",
};

const json = (schema: z.ZodType) => ({ "application/json": { schema } });
const requestIdHeader = z.object({
  "x-request-id": z
    .string()
    .meta({ description: "Echoes a valid incoming X-Request-Id, else a new id" }),
});

function operation(endpoint: Endpoint): ZodOpenApiOperationObject {
  const responses: ZodOpenApiOperationObject["responses"] = {
    [String(endpoint.status)]: {
      description:
        endpoint.status === 204
          ? "Done"
          : endpoint.status === 303
            ? "Redirect (Location) to the page that says what happened"
            : "Success",
      headers: endpoint.headers?.etag
        ? requestIdHeader.extend({
            etag: z.string().meta({ description: "Send back as If-Match to change safely" }),
          })
        : requestIdHeader,
      ...(endpoint.response && endpoint.status !== 204
        ? {
            content: endpoint.responseType
              ? { [endpoint.responseType]: { schema: endpoint.response } }
              : json(endpoint.response),
          }
        : {}),
    },
  };
  for (const extra of endpoint.alsoReturns ?? []) {
    responses[String(extra.status) as `2${string}`] = {
      description: extra.description,
      ...(endpoint.response ? { content: json(endpoint.response) } : {}),
    };
  }
  const validates = Boolean(endpoint.params || endpoint.query || endpoint.body);
  const statuses = new Set([...endpoint.errors, 429, 500]);
  if (endpoint.auth !== "public") statuses.add(401);
  if (endpoint.body) [413, 415].forEach((s) => statuses.add(s));
  for (const status of [...statuses].sort()) {
    responses[String(status) as `4${string}`] = {
      description: errorDescriptions[status] ?? "Error",
      content: json(errorBody),
    };
  }
  if (validates) {
    responses["422"] = {
      description: "Validation error (loc starts with body, query, path or header)",
      content: json(validationErrorBody),
    };
  }

  const header = endpoint.headers?.ifMatch
    ? z.object({
        "if-match": z
          .string()
          .optional()
          .meta({ description: "The ETag of the version being changed" }),
      })
    : endpoint.headers?.lastEventId
      ? z.object({
          "last-event-id": z.string().optional().meta({
            description: "The id of the last event received: the stream resumes after it",
          }),
        })
      : undefined;
  const needs = endpoint.orgRole
    ? `Needs the organization role \`${endpoint.orgRole}\` (or higher); others get 403.`
    : undefined;
  const ingest =
    endpoint.ingestKeys === "accepted"
      ? "A deployment's ingest key (`hgt_...`) may call it, for runs of its own project only."
      : endpoint.ingestKeys === "refused"
        ? "A deployment's ingest key (`hgt_...`) gets 403."
        : undefined;
  const description = [endpoint.description, needs, ingest].filter(Boolean).join("\n\n");
  return {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    ...(description ? { description } : {}),
    ...(endpoint.orgRole ? { "x-hangar-org-role": endpoint.orgRole } : {}),
    ...(endpoint.ingestKeys ? { "x-hangar-ingest-keys": endpoint.ingestKeys } : {}),
    tags: [endpoint.tag],
    ...(endpoint.auth === "public" ? { security: [] } : {}),
    ...(endpoint.auth === "listener" ? { security: [{ ListenerToken: [] }] } : {}),
    requestParams: {
      ...(endpoint.params ? { path: endpoint.params } : {}),
      ...(endpoint.query ? { query: endpoint.query } : {}),
      ...(header ? { header } : {}),
    },
    ...(endpoint.body ? { requestBody: { required: true, content: json(endpoint.body) } } : {}),
    ...(endpoint.rawBody
      ? {
          requestBody: {
            required: true,
            description: endpoint.rawBody.description,
            content: Object.fromEntries(
              [endpoint.rawBody.type]
                .flat()
                .map((type) => [type, { schema: z.string().meta({ format: "binary" }) }]),
            ),
          },
        }
      : {}),
    responses,
  };
}

export function buildOpenApiDocument() {
  const paths: ZodOpenApiPathsObject = {};
  for (const group of Object.values(endpointGroups)) {
    for (const endpoint of Object.values(group) as Endpoint[]) {
      paths[endpoint.path] ??= {};
      paths[endpoint.path]![endpoint.method.toLowerCase() as "get"] = operation(endpoint);
    }
  }
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Hangar API",
      version: packageJson.version,
      description:
        "Manage agent deployments, their revisions, OAuth providers, users' tokens at them (agent authorization) and code-host integrations. Authenticate with `X-Api-Key`; organization-scoped keys also send `X-Tenant-Id`.",
    },
    components: {
      securitySchemes: {
        ApiKey: { type: "apiKey", in: "header", name: "X-Api-Key" },
        ListenerToken: {
          type: "http",
          scheme: "bearer",
          description: "A listener's token (listener protocol only)",
        },
      },
    },
    security: [{ ApiKey: [] }],
    paths,
  });
}

let cached: ReturnType<typeof buildOpenApiDocument> | undefined;
export function openApiDocument() {
  cached ??= buildOpenApiDocument();
  return cached;
}
