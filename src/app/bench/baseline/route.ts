import { env } from "@/env";

// The benchmarks' baseline: a fixed JSON body of a requested size, through the same proxy and
// router as the API, so a ratio against it isolates the cost of our own handlers. Off unless
// HANGAR_BENCH=1.
const cache = new Map<number, string>();

export function GET(req: Request) {
  if (!env.HANGAR_BENCH) return Response.json({ detail: "Not Found" }, { status: 404 });
  const bytes = Math.min(
    Math.max(Number(new URL(req.url).searchParams.get("bytes")) || 2, 2),
    4 * 1024 * 1024,
  );
  let body = cache.get(bytes);
  if (!body) {
    body = JSON.stringify({ padding: "x".repeat(Math.max(bytes - 14, 0)) });
    cache.set(bytes, body);
  }
  return new Response(body, { headers: { "content-type": "application/json" } });
}
