import { inject } from "vitest";

/** A tRPC answer over HTTP, as the dashboard gets it: the data, or the error's message and code. */
export interface TrpcAnswer<T = any> {
  status: number;
  data: T;
  error?: { message: string; code: string; issues?: unknown };
}

async function answer<T>(res: Response): Promise<TrpcAnswer<T>> {
  const body = await res.json();
  if (body.error)
    return {
      status: res.status,
      data: undefined as T,
      error: {
        message: body.error.message,
        code: body.error.data?.code,
        issues: body.error.data?.issues,
      },
    };
  return { status: res.status, data: body.result.data as T };
}

/** A tRPC mutation over HTTP with a session cookie (see sign-in.ts). */
export async function trpcMutation<T = any>(
  path: string,
  cookie: string,
  input: unknown,
): Promise<TrpcAnswer<T>> {
  const res = await fetch(`${inject("baseUrl")}/api/trpc/${path}`, {
    method: "POST",
    headers: { cookie, "content-type": "application/json" },
    body: JSON.stringify(input),
  });
  return answer<T>(res);
}

/** A tRPC query over HTTP with a session cookie. */
export async function trpcQuery<T = any>(
  path: string,
  cookie: string,
  input: unknown = {},
): Promise<TrpcAnswer<T>> {
  const query = encodeURIComponent(JSON.stringify(input));
  const res = await fetch(`${inject("baseUrl")}/api/trpc/${path}?input=${query}`, {
    headers: { cookie },
  });
  return answer<T>(res);
}
