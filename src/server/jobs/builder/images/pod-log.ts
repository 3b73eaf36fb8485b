import http from "node:http";
import https from "node:https";
import { setTimeout as sleep } from "node:timers/promises";
import { ApiException, type CoreV1Api, type KubeConfig } from "@kubernetes/client-node";
import { env } from "@/env";
import { harmless, withCutMark } from "@/lib/log-text";
import { LineReader } from "./line-reader";

// Follows one container's log (GET .../pods/<pod>/log?follow=true) line by line until the
// container has ended, holding no more than its longest line kept. A stream that drops early
// (an idle connection cut on the way) is read again from the last line's timestamp; lines
// already taken are skipped.

export interface LogFollower {
  /** Starts following `pod` (once; later calls do nothing). */
  start(pod: string): void;
  /** Resolves when the log was read to its end, or at once if never started or stopped. */
  done(): Promise<void>;
  stop(): void;
}

/** Orders RFC 3339 UTC timestamps whatever their fraction's length (Go trims its zeros). */
export function stampKey(stamp: string): string {
  const match = /^([^.]+?)(?:\.(\d+))?Z$/.exec(stamp);
  return match ? `${match[1]}.${(match[2] ?? "").padEnd(9, "0")}Z` : stamp;
}

/** Room for the `timestamp ` before each line's text, beside the longest text kept. */
const STAMP_ROOM = 64;

/**
 * Splits `timestamp text` log lines from a chunked stream (line-reader.ts: never more than the
 * longest line is held); each text harmless and cut to `maxLine` with a mark.
 */
function stampedLines(maxLine: number, onLine: (stamp: string, text: string) => void) {
  return new LineReader(maxLine + STAMP_ROOM, (start, length) => {
    const space = start.indexOf(" ");
    if (space <= 0) return;
    const text = withCutMark(start.slice(space + 1), length - space - 1, maxLine);
    onLine(start.slice(0, space), harmless(text));
  });
}

export function followContainerLog(
  kubeconfig: KubeConfig,
  core: CoreV1Api,
  where: { namespace: string; container: string; retryMs: number },
  onLines: (lines: string[]) => void,
): LogFollower {
  const stopper = new AbortController();
  let running: Promise<void> | null = null;
  let last: string | null = null;

  /** One GET of the log from `last` on; resolves when the server ends it, rejects if it breaks. */
  async function readOnce(pod: string): Promise<void> {
    const server = kubeconfig.getCurrentCluster()!.server.replace(/\/+$/, "");
    const url = new URL(`${server}/api/v1/namespaces/${where.namespace}/pods/${pod}/log`);
    url.searchParams.set("container", where.container);
    url.searchParams.set("follow", "true");
    url.searchParams.set("timestamps", "true");
    if (last) url.searchParams.set("sinceTime", last.replace(/\.\d+Z$/, "Z"));
    const options: https.RequestOptions = {};
    await kubeconfig.applyToHTTPSOptions(options);
    const client = url.protocol === "http:" ? http : https;
    await new Promise<void>((resolve, reject) => {
      const request = client.get(url, { ...options, signal: stopper.signal }, (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          return reject(new Error(`the pod's log answered ${response.statusCode}`));
        }
        const lines: string[] = [];
        const splitter = stampedLines(env.HANGAR_LOG_MAX_LINE, (stamp, text) => {
          const key = stampKey(stamp);
          if (last !== null && key <= last) return;
          last = key;
          lines.push(text);
        });
        const flush = () => (lines.length ? onLines(lines.splice(0)) : undefined);
        response.on("data", (chunk: Buffer) => {
          splitter.push(chunk);
          flush();
        });
        response.on("end", () => {
          splitter.end();
          flush();
          resolve();
        });
        response.on("error", reject);
        response.on("aborted", () => reject(new Error("the pod's log stream was cut")));
      });
      request.on("error", reject);
    });
  }

  /** Whether the container has ended (or the pod is gone), so its log is complete. */
  async function ended(pod: string): Promise<boolean> {
    try {
      const read = await core.readNamespacedPod({ name: pod, namespace: where.namespace });
      const status = read.status?.containerStatuses?.find((s) => s.name === where.container);
      return Boolean(status?.state?.terminated);
    } catch (error) {
      if (error instanceof ApiException && error.code === 404) return true;
      throw error;
    }
  }

  async function follow(pod: string): Promise<void> {
    while (!stopper.signal.aborted) {
      const clean = await readOnce(pod).then(
        () => true,
        () => false,
      );
      if (stopper.signal.aborted) return;
      // A clean end after the container ended is the whole log; anything else reads on.
      if (clean && (await ended(pod).catch(() => false))) return;
      await sleep(where.retryMs, undefined, { signal: stopper.signal }).catch(() => undefined);
    }
  }

  return {
    start(pod) {
      running ??= follow(pod);
    },
    done: () => running ?? Promise.resolve(),
    stop: () => stopper.abort(),
  };
}
