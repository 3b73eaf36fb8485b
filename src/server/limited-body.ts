/**
 * A request body's exact bytes, or null as soon as it passes `max` bytes: the declared
 * Content-Length is checked first, and the stream is counted while read (the header can lie or
 * be absent). Shared by the REST door, the webhook and the tRPC door.
 */
export async function readBodyUpTo(req: Request, max: number): Promise<Buffer | null> {
  if (Number(req.headers.get("content-length") ?? 0) > max) return null;
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
