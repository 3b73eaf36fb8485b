import { unknownRouteHandlers } from "@/server/rest/not-found";

// Unknown paths under the tracing base: the contract's 404 (the SDK falls back on 404 only).
export const { GET, POST, PATCH, PUT, DELETE } = unknownRouteHandlers;
