import { randomUUID } from "node:crypto";

export const REQUEST_ID_HEADER = "x-request-id";
const VALID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Echo a well-formed incoming request id, else make one. */
export function requestIdFrom(headers: Headers): string {
  const incoming = headers.get(REQUEST_ID_HEADER);
  return incoming && VALID.test(incoming) ? incoming : randomUUID();
}
