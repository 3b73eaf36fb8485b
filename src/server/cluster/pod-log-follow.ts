import { createHash } from "node:crypto";
import { Writable } from "node:stream";
import { CoreV1Api, type KubeConfig } from "@kubernetes/client-node";
import fetch from "node-fetch";
import { APP_COMPONENTS, LABELS } from "./health";
import { stampKey, summarizePod, type PodLogLine } from "./pod-logs";

// Follows a deployment's runtime logs live (the Kubernetes API's `follow=true` log stream, one
// per running container of each of the deployment's app pods). Pods come and go (a rollout, a
// restart ends a container's stream): the pods are listed again every RESCAN_MS and a container
// whose stream ended is followed again from its last line, so none is sent twice. A line longer
// than `maxLine` is cut where it is read: a container that prints without a line feed holds at
// most `maxLine` characters here.

const RESCAN_MS = 3_000;

export interface FollowTarget {
  namespace: string;
  deploymentId: string;
  pod?: string | null;
  /** Lines at or after this time; without it, only lines printed from now on. */
  since?: Date;
  /** The longest line kept whole (longer ones are cut and ended by the next line feed). */
  maxLine: number;
}

interface Cursor {
  key: string;
  /** Lines with `key` already sent. */
  count: number;
}

/** Calls `onLine` with each new line until `signal` aborts; resolves then. */
export async function followDeploymentLogs(
  kubeconfig: KubeConfig,
  target: FollowTarget,
  onLine: (line: PodLogLine) => void,
  signal: AbortSignal,
): Promise<void> {
  const core = kubeconfig.makeApiClient(CoreV1Api);
  const active = new Map<string, AbortController>();
  const cursors = new Map<string, Cursor>();
  const started = new Date();

  const follow = async (pod: string, container: string) => {
    const id = `${pod}/${container}`;
    const controller = new AbortController();
    active.set(id, controller);
    const cursor = cursors.get(id);
    const since = cursor ? new Date(cursor.key.slice(0, 23) + "Z") : (target.since ?? started);
    let pending = "";
    let skipping = false;
    const sinceKey = cursor?.key ?? stampKey(since.toISOString());
    let hereKey = "";
    let hereN = 0;
    const emit = (raw: string) => {
      const space = raw.indexOf(" ");
      if (space <= 0) return;
      const key = stampKey(raw.slice(0, space));
      if (key < sinceKey) return;
      hereN = key === hereKey ? hereN + 1 : 0;
      hereKey = key;
      // Followed again after its stream ended: the lines of its last second come again.
      if (cursor && key === cursor.key && hereN < cursor.count) return;
      cursors.set(id, { key, count: hereN + 1 });
      onLine({
        key,
        id: createHash("sha256")
          .update(`${pod}\n${container}\n0\n${key}\n${hereN}`)
          .digest("base64url")
          .slice(0, 22),
        pod,
        container,
        previous: false,
        text: raw.slice(space + 1).replace(/\r$/, ""),
      });
    };
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        let text = chunk.toString("utf8");
        while (text.length) {
          const feed = text.indexOf("\n");
          const part = feed < 0 ? text : text.slice(0, feed);
          text = feed < 0 ? "" : text.slice(feed + 1);
          if (!skipping) pending += part;
          if (!skipping && pending.length > target.maxLine + 64) {
            emit(pending);
            pending = "";
            skipping = true;
          }
          if (feed >= 0) {
            if (!skipping) emit(pending);
            pending = "";
            skipping = false;
          }
        }
        done();
      },
    });
    const ended = () => active.get(id) === controller && active.delete(id);
    sink.on("finish", ended);
    sink.on("close", ended);
    // The request is our own rather than the client's Log.log: that one can only be aborted
    // once the API has sent its headers, which a follow of a quiet container may never do.
    const url = new URL(
      `${kubeconfig.getCurrentCluster()!.server}/api/v1/namespaces/${encodeURIComponent(target.namespace)}/pods/${encodeURIComponent(pod)}/log`,
    );
    url.searchParams.set("container", container);
    url.searchParams.set("follow", "true");
    url.searchParams.set("timestamps", "true");
    url.searchParams.set(
      "sinceTime",
      new Date(Math.floor(since.getTime() / 1000) * 1000).toISOString().replace(".000Z", "Z"),
    );
    const stop = () => controller.abort();
    signal.addEventListener("abort", stop, { once: true });
    controller.signal.addEventListener("abort", () => signal.removeEventListener("abort", stop), {
      once: true,
    });
    try {
      const init = await kubeconfig.applyToFetchOptions({});
      const res = await fetch(url.toString(), {
        ...init,
        method: "GET",
        signal: controller.signal as never,
      });
      if (res.status !== 200) {
        // Not started yet, or gone: tried again at the next scan.
        res.body.resume();
        ended();
        return;
      }
      res.body.on("error", () => (ended(), sink.destroy()));
      res.body.pipe(sink);
    } catch {
      ended();
    }
  };

  const scan = async () => {
    const list = await core.listNamespacedPod({
      namespace: target.namespace,
      labelSelector: `${LABELS.deploymentId}=${target.deploymentId}`,
    });
    for (const item of list.items) {
      const pod = summarizePod(item);
      if (!APP_COMPONENTS.has(pod.component ?? "")) continue;
      if (target.pod && pod.name !== target.pod) continue;
      // A container waiting to start again (a crash loop) is followed once it runs.
      const stopped = new Set(
        (item.status?.containerStatuses ?? [])
          .filter((c) => c.state?.waiting || c.state?.terminated)
          .map((c) => c.name),
      );
      for (const container of pod.containers) {
        if (active.has(`${pod.name}/${container}`)) continue;
        if (stopped.has(container)) continue;
        void follow(pod.name, container);
      }
    }
  };

  try {
    while (!signal.aborted) {
      try {
        await scan();
      } catch {
        // The cluster did not answer this time: the next scan tries again.
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, RESCAN_MS);
        signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
      });
    }
  } finally {
    for (const controller of active.values()) controller.abort();
    active.clear();
  }
}
