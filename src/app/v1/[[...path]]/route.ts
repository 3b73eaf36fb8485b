import { unknownRouteHandlers } from "@/server/rest/not-found";

export const { GET, POST, PATCH, PUT, DELETE } = unknownRouteHandlers;
