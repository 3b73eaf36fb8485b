import { expect } from "vitest";

// A server-sent event stream read as a client reads it: events as they arrive, and the end.

export interface StreamEvent {
  event: string;
  data: unknown;
}

/** An event as it came over the wire: `id`, `event` (default `message`) and the data's text. */
export interface RawEvent {
  id?: string;
  event: string;
  data: string;
}

/** The events of a text/event-stream body, one by one as they arrive (comments skipped). */
export async function* serverSentEvents(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<RawEvent> {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      if (block.startsWith(":")) continue;
      const field = (name: string) =>
        block
          .split("\n")
          .find((l) => l.startsWith(`${name}: `))
          ?.slice(name.length + 2);
      yield { id: field("id"), event: field("event") ?? "message", data: field("data") ?? "" };
    }
  }
}

export interface EventStream {
  /** Resolves with the next event named `name` (also one that already arrived). */
  next(name: string): Promise<StreamEvent>;
  /** Every event, once the server has closed the stream; fails if it is still open after `ms`. */
  closedWithin(ms: number): Promise<StreamEvent[]>;
  /** The events so far, in order. */
  received(): StreamEvent[];
  close(): void;
}

export async function openEventStream(
  url: string,
  headers: Record<string, string>,
): Promise<EventStream> {
  const abort = new AbortController();
  const res = await fetch(url, { headers, signal: abort.signal });
  expect(res.status, res.status === 200 ? "" : await res.text()).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const events: StreamEvent[] = [];
  const waiters = new Set<() => void>();
  let done = false;
  const closed = (async () => {
    for await (const raw of serverSentEvents(res.body!)) {
      events.push({ event: raw.event, data: JSON.parse(raw.data || "{}") });
      for (const wake of waiters) wake();
    }
    return events;
  })().finally(() => {
    done = true;
    for (const wake of waiters) wake();
  });
  closed.catch(() => undefined);

  return {
    async next(name) {
      for (;;) {
        const found = events.find((e) => e.event === name);
        if (found) return found;
        if (done) throw new Error(`the stream ended without an event "${name}"`);
        await new Promise<void>((resolve) => {
          const wake = () => (waiters.delete(wake), resolve());
          waiters.add(wake);
        });
      }
    },
    async closedWithin(ms) {
      let timer: NodeJS.Timeout | undefined;
      const open = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the stream is still open after ${ms} ms`)), ms);
      });
      try {
        return await Promise.race([closed, open]);
      } finally {
        clearTimeout(timer);
        abort.abort();
      }
    },
    received: () => [...events],
    close: () => abort.abort(),
  };
}
