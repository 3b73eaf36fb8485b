import { inject } from "vitest";

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** Calls the running server over HTTP, as an external tool would. */
export async function api<T = any>(
  path: string,
  options: {
    key?: string;
    method?: string;
    body?: unknown;
    rawBody?: string;
    headers?: Record<string, string>;
    baseUrl?: string;
  } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers["x-api-key"] = options.key;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const res = await fetch(`${options.baseUrl ?? inject("baseUrl")}${path}`, {
    method: options.method ?? "GET",
    headers,
    body,
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}
