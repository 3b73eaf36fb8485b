import { health, info } from "@/schemas/service";
import { defineEndpoint } from "../endpoint";

export const serviceEndpoints = {
  info: defineEndpoint({
    method: "GET",
    path: "/info",
    operationId: "getInfo",
    summary: "Service version, mode and region",
    tag: "Service",
    auth: "public",
    response: info,
    status: 200,
    errors: [],
  }),
  healthz: defineEndpoint({
    method: "GET",
    path: "/healthz",
    operationId: "healthz",
    summary: "Liveness: the process is up",
    tag: "Service",
    auth: "public",
    response: health,
    status: 200,
    errors: [],
  }),
  readyz: defineEndpoint({
    method: "GET",
    path: "/readyz",
    operationId: "readyz",
    summary: "Readiness: the database is reachable",
    tag: "Service",
    auth: "public",
    response: health,
    status: 200,
    errors: [503],
  }),
};
