import { createHash, randomUUID } from "node:crypto";
import type http from "node:http";
import type { rolloutSimulator } from "./fake-kube-rollout";
import {
  podObject as asObject,
  type Line,
  type SimPod,
  type StoredObject,
} from "./fake-kube-pod-status";
import { CRASH_LOG } from "./fake-kube-rollout";

// The pods half of the fake Kubernetes API (fake-kube-api.ts): every applied Deployment gets its
// replicas as pods (named `<deployment>-<template hash>-<n>`, replaced when the template changes),
// whose containers print log lines (`printLog`), keep the previous container's log after a
// restart, and can be broken the ways a cluster breaks them: a crash loop, an OOM kill, a node
// drain (evicted pods, replacements no node takes). Events (Warning) say what happened.
// Logs serve follow, previous, timestamps, sinceTime, sinceSeconds and tailLines.

interface WorkloadSpec {
  replicas?: number;
  selector?: { matchLabels?: Record<string, string> };
  template?: {
    metadata?: { labels?: Record<string, string> };
    spec?: { containers?: { name: string; image: string; env?: Record<string, unknown>[] }[] };
  };
}

export interface FakeEvent {
  metadata: { name: string; namespace: string; uid: string };
  involvedObject: { kind: string; name: string; namespace: string };
  reason: string;
  message: string;
  type: "Warning" | "Normal";
  count: number;
  firstTimestamp: string;
  lastTimestamp: string;
}

const DRAIN_MESSAGE = "0/1 nodes are available: 1 node(s) were unschedulable.";

/** RFC 3339 with nanoseconds, trailing zeros trimmed, as Go's RFC3339Nano writes it. */
function stampOf(ns: bigint): string {
  const seconds = new Date(Number(ns / 1_000_000_000n) * 1000).toISOString().slice(0, 19);
  const fraction = (ns % 1_000_000_000n).toString().padStart(9, "0").replace(/0+$/, "");
  return `${seconds}${fraction ? `.${fraction}` : ""}Z`;
}

const matches = (labels: Record<string, string>, selector: string) =>
  selector
    .split(",")
    .filter(Boolean)
    .map((pair) => pair.split("="))
    .every(([key, value]) => labels[key!] === value);

export function podSimulator(
  objects: Map<string, StoredObject>,
  rollout: ReturnType<typeof rolloutSimulator>,
  changed: () => void,
) {
  const pods = new Map<string, SimPod>();
  const events: FakeEvent[] = [];
  let clock = 0n;
  let draining = false;

  const tick = () => {
    const now = BigInt(Date.now()) * 1_000_000n;
    clock = clock + 1000n > now ? clock + 1000n : now;
    return clock;
  };

  function event(pod: SimPod, reason: string, message: string) {
    const at = new Date().toISOString();
    const same = events.find(
      (e) => e.involvedObject.name === pod.name && e.reason === reason && e.message === message,
    );
    if (same) {
      same.count += 1;
      same.lastTimestamp = at;
      return;
    }
    events.push({
      metadata: {
        name: `${pod.name}.${events.length}`,
        namespace: pod.namespace,
        uid: randomUUID(),
      },
      involvedObject: { kind: "Pod", name: pod.name, namespace: pod.namespace },
      reason,
      message,
      type: "Warning",
      count: 1,
      firstTimestamp: at,
      lastTimestamp: at,
    });
  }

  /** A container exits: its log becomes the previous one, and it starts again. */
  function restart(pod: SimPod, reason: string, exitCode: number, lastWords: string[] = []) {
    for (const container of pod.containers) {
      for (const text of lastWords) container.current.push([tick(), text]);
      container.previous = container.current;
      container.current = [];
      for (const res of container.followers.keys()) res.end();
      container.followers.clear();
    }
    pod.restartCount += 1;
    pod.lastTerminated = { reason, exitCode, finishedAt: new Date().toISOString() };
  }

  /** Creates and removes pods so each Deployment has its replicas of its current template. */
  function sync() {
    const wanted = new Set<string>();
    for (const [path, object] of objects) {
      if (object.kind !== "Deployment") continue;
      const spec = (object.spec ?? {}) as WorkloadSpec;
      const metadata = object.metadata as { name: string; namespace: string };
      const hash = createHash("sha256")
        .update(JSON.stringify(spec.template ?? {}))
        .digest("hex")
        .slice(0, 6);
      for (let i = 0; i < (spec.replicas ?? 1); i++) {
        const name = `${metadata.name}-${hash}-${i}`;
        const key = `${metadata.namespace}/${name}`;
        wanted.add(key);
        if (pods.has(key)) continue;
        const crashes = rollout.crashes(object);
        pods.set(key, {
          uid: randomUUID(),
          namespace: metadata.namespace,
          name,
          deployment: metadata.name,
          deploymentPath: path,
          labels: spec.template?.metadata?.labels ?? spec.selector?.matchLabels ?? {},
          containers: (spec.template?.spec?.containers ?? []).map((c) => ({
            name: c.name,
            image: c.image,
            env: c.env,
            current: [],
            previous: crashes ? CRASH_LOG.split("\n").map((t): Line => [tick(), t]) : null,
            followers: new Map(),
          })),
          restartCount: 0,
          lastTerminated: null,
          fault: draining ? { kind: "unschedulable", message: DRAIN_MESSAGE } : null,
          evicted: false,
          createdAt: new Date().toISOString(),
        });
      }
    }
    for (const [key, pod] of pods)
      if (!wanted.has(key) && !pod.evicted) {
        for (const c of pod.containers) for (const res of c.followers.keys()) res.end();
        pods.delete(key);
      }
  }

  const podObject = (pod: SimPod) => asObject(pod, objects.get(pod.deploymentPath), rollout);

  const workloadPods = (deployment: string) =>
    [...pods.values()].filter((p) => p.deployment === deployment && !p.evicted);

  function write(res: http.ServerResponse, [ns, text]: Line, stamps: boolean) {
    res.write(`${stamps ? `${stampOf(ns)} ` : ""}${text}\n`);
  }

  return {
    sync,

    /** Pods in `namespace` (or every namespace: null) that `selector` selects. */
    list(namespace: string | null, selector: string) {
      return [...pods.values()]
        .filter(
          (p) => (namespace === null || p.namespace === namespace) && matches(p.labels, selector),
        )
        .map(podObject);
    },

    get(namespace: string, name: string) {
      const pod = pods.get(`${namespace}/${name}`);
      return pod ? podObject(pod) : null;
    },

    events: (namespace: string | null) =>
      events.filter((e) => namespace === null || e.metadata.namespace === namespace),

    /** Ready pods of the Deployment at `path` while a fault or drain touches it, else null. */
    readyOverride(path: string): number | null {
      const own = [...pods.values()].filter((p) => p.deploymentPath === path);
      if (!own.some((p) => p.fault || p.evicted)) return null;
      return own.filter((p) => !p.evicted && !p.fault).length;
    },

    /** Serves a container's log; false: no such pod here. */
    log(namespace: string, name: string, query: URLSearchParams, res: http.ServerResponse) {
      const pod = pods.get(`${namespace}/${name}`);
      if (!pod) return false;
      const wanted = query.get("container");
      const container = wanted
        ? pod.containers.find((c) => c.name === wanted)
        : pod.containers.length === 1
          ? pod.containers[0]
          : undefined;
      const fail = (message: string) => {
        res.writeHead(400, { "content-type": "application/json" });
        res.end(JSON.stringify({ kind: "Status", status: "Failure", message, code: 400 }));
        return true;
      };
      if (!container)
        return fail(`container ${wanted ?? "(none)"} is not valid for pod ${pod.name}`);
      const previous = query.get("previous") === "true";
      if (previous && !container.previous)
        return fail(
          `previous terminated container "${container.name}" in pod "${pod.name}" not found`,
        );
      let lines = previous ? container.previous! : container.current;
      const sinceTime = query.get("sinceTime");
      const sinceSeconds = query.get("sinceSeconds");
      const from = sinceTime
        ? BigInt(Math.floor(Date.parse(sinceTime) / 1000)) * 1_000_000_000n
        : sinceSeconds
          ? BigInt(Date.now() - Number(sinceSeconds) * 1000) * 1_000_000n
          : null;
      if (from !== null) lines = lines.filter(([ns]) => ns >= from);
      const tail = query.get("tailLines");
      if (tail !== null) lines = lines.slice(Math.max(0, lines.length - Number(tail)));
      const stamps = query.get("timestamps") === "true";
      res.writeHead(200, { "content-type": "text/plain" });
      for (const line of lines) write(res, line, stamps);
      if (query.get("follow") === "true" && !previous && !pod.evicted) {
        container.followers.set(res, stamps);
        res.on("close", () => container.followers.delete(res));
      } else res.end();
      return true;
    },

    /** Lines the Deployment's containers print now (every replica, or replica `replica`). */
    print(
      deployment: string,
      texts: string[],
      options: { replica?: number; container?: string } = {},
    ) {
      const targets = workloadPods(deployment).filter(
        (p) => options.replica === undefined || p.name.endsWith(`-${options.replica}`),
      );
      if (targets.length === 0) throw new Error(`No running pods of Deployment ${deployment}`);
      for (const pod of targets)
        for (const c of pod.containers) {
          if (options.container && c.name !== options.container) continue;
          for (const text of texts) {
            const line: Line = [tick(), text];
            c.current.push(line);
            for (const [res, stamps] of c.followers) write(res, line, stamps);
          }
        }
    },

    /** The Deployment's containers exit and keep failing (`reason`: Error, OOMKilled). */
    crashLoop(deployment: string, reason = "Error", lastWords: string[] = []) {
      const exitCode = reason === "OOMKilled" ? 137 : 1;
      for (const pod of workloadPods(deployment)) {
        restart(pod, reason, exitCode, lastWords);
        pod.fault = { kind: "crash_loop", reason, exitCode };
        event(pod, "BackOff", "Back-off restarting failed container");
      }
      changed();
    },

    /** The kernel kills the Deployment's containers for memory once; they start again. */
    oomKill(deployment: string) {
      for (const pod of workloadPods(deployment)) restart(pod, "OOMKilled", 137);
      changed();
    },

    /** The node is drained: every pod is evicted; replacements wait for a node (`uncordon`). */
    drain() {
      draining = true;
      for (const [key, pod] of [...pods]) {
        if (pod.evicted) continue;
        pod.evicted = true;
        for (const c of pod.containers) for (const res of c.followers.keys()) res.end();
        pods.delete(key);
        pods.set(`${key}-evicted`, { ...pod, name: `${pod.name}-evicted` });
        event(pod, "Evicted", "The node was drained: the pod was evicted.");
      }
      sync();
      for (const pod of pods.values())
        if (pod.fault?.kind === "unschedulable") event(pod, "FailedScheduling", DRAIN_MESSAGE);
      changed();
    },

    /** A node takes pods again: waiting replacements start, evicted pods are cleaned up. */
    uncordon() {
      draining = false;
      for (const [key, pod] of [...pods]) {
        if (pod.evicted) pods.delete(key);
        else if (pod.fault?.kind === "unschedulable") pod.fault = null;
      }
      changed();
    },

    /** The Deployment's containers run again (a crash loop ends). */
    heal(deployment: string) {
      for (const pod of workloadPods(deployment))
        if (pod.fault?.kind === "crash_loop") pod.fault = null;
      changed();
    },

    /** Whether anyone follows a log of the Deployment's pods now. */
    followed: (deployment: string) =>
      workloadPods(deployment).some((p) => p.containers.some((c) => c.followers.size > 0)),
  };
}
