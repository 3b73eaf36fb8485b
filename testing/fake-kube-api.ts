import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { jobSimulator, type BuildJobEnd, type BuildJobScript } from "./fake-kube-jobs";
import { admit } from "./fake-kube-network-policies";
import { collectOwnedBy, mergePatch, replaceRefusal } from "./fake-kube-objects";
import { podSimulator } from "./fake-kube-pods";
import { rolloutSimulator, type RolloutBehaviour, type RolloutOptions } from "./fake-kube-rollout";
import {
  API_RESOURCES,
  labelsMatch,
  listOf,
  objectOf,
  readBody,
  send,
  splitPath,
  status,
} from "./fake-kube-http";
import { watchHub, type Lister } from "./fake-kube-watch";

export { API_RESOURCES, type ApiResource } from "./fake-kube-http";

export { CRASH_LOG, UNSCHEDULABLE_MESSAGE, type RolloutBehaviour } from "./fake-kube-rollout";
export type { BuildJobEnd, BuildJobScript } from "./fake-kube-jobs";

// A small Kubernetes API server for the Kubernetes driver's tests: discovery for the kinds the
// renderer emits, create (POST), replace (PUT, optimistic on resourceVersion), server-side apply
// and merge patches (PATCH), GET and DELETE, with bearer-token auth. It keeps the
// applied objects by path and records every request. Rollouts are simulated: a GET of an applied
// Deployment or StatefulSet answers a status, and the pods of a Deployment (list, previous log)
// show what `setRollout` chose: ready, an image that cannot be pulled, a crash loop, or pods no
// node can take. Jobs (create, merge-patch, status, their pod and its followed log) run as
// fake-kube-jobs.ts says; deleting an object with propagationPolicy Background or Foreground
// deletes what it owns (ownerReferences), as the garbage collector would. A Deployment's pods
// (fake-kube-pods.ts) print logs and break on request (crash loop, OOM kill, drain); pods,
// deployments and events can be listed and watched, in a namespace or all (fake-kube-watch.ts).
// NetworkPolicies are defaulted and validated as the API server does (fake-kube-network-policies.ts).

export const APPLY_PATCH = "application/apply-patch+yaml";
export const MERGE_PATCH = "application/merge-patch+json";

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  contentType: string | undefined;
  authorization: string | undefined;
  /** The parsed body (YAML, so JSON too), or undefined without one. */
  body: unknown;
}

export interface FakeKubeApi {
  url: string;
  token: string;
  requests: RecordedRequest[];
  /** Applied objects by path, e.g. /apis/apps/v1/namespaces/ns/deployments/web. */
  objects: Map<string, Record<string, unknown>>;
  /** How applied Deployments roll out from now on (default: ready at once). */
  setRollout(behaviour: RolloutBehaviour, options?: RolloutOptions): void;
  /** What Jobs created from now on print and how they end (default: succeed at once). */
  setBuildJob(script: BuildJobScript): void;
  /** Ends a running Job: its log streams end, its status and pod say how. */
  finishJob(name: string, end: BuildJobEnd): void;
  /** Lines a running Job's builder prints now (followers get them at once). */
  appendJobLog(name: string, lines: string[]): void;
  /** Drops the open log streams of a Job, as a connection cut on the way would. */
  cutJobLogs(name: string): void;
  /** Whether a log stream of the Job is open. */
  jobLogFollowed(name: string): boolean;
  /** Lines a Deployment's containers print now (every replica, or the one numbered `replica`). */
  printLog(deployment: string, lines: string[], options?: { replica?: number }): void;
  /** The Deployment's containers exit and keep failing (reason Error, or OOMKilled). */
  crashLoop(deployment: string, reason?: string, lastWords?: string[]): void;
  /** The Deployment's containers are OOM-killed once and start again. */
  oomKill(deployment: string): void;
  /** A crash loop of the Deployment ends: its containers run again. */
  heal(deployment: string): void;
  /** The node is drained: pods evicted, replacements unschedulable until `uncordon`. */
  drain(): void;
  uncordon(): void;
  /** Whether a log of the Deployment's pods is being followed now. */
  podLogFollowed(deployment: string): boolean;
  /** How many watches are open. */
  watchCount(): number;
  /** Ends every open watch (as an API server's timeout does). */
  closeWatches(): void;
  /** Every later request to `path` answers `status` with a Status carrying `message`, or `raw`. */
  failOn(path: string, status: number, message: string, raw?: string): void;
  /** Requests to `path` are served again (undoes failOn). */
  recover(path: string): void;
  /** A kubeconfig file for this server (its current context), with `token` as the user's. */
  kubeconfig(token?: string): string;
  stop(): Promise<void>;
}

export async function startFakeKubeApi(): Promise<FakeKubeApi> {
  const token = randomBytes(16).toString("hex");
  const requests: RecordedRequest[] = [];
  const objects = new Map<string, Record<string, unknown>>();
  const failures = new Map<string, { status: number; message: string; raw?: string }>();
  let resourceVersion = 0;
  const rollout = rolloutSimulator((p) => pods.readyOverride(p));
  const pods = podSimulator(objects, rollout, () => hub.changed());
  const jobs = jobSimulator();
  const lister: Lister = (kind, namespace, selector) => {
    if (kind === "pods")
      return [...pods.list(namespace, selector), ...jobs.pods(namespace ?? "", selector)];
    if (kind === "events") return pods.events(namespace);
    return [...objects]
      .filter(
        ([p, o]) =>
          o.kind === "Deployment" && (!namespace || p.includes(`/namespaces/${namespace}/`)),
      )
      .filter(([, o]) =>
        labelsMatch((o.metadata as { labels?: Record<string, string> }).labels, selector),
      )
      .map(([p, o]) => rollout.withStatus(p, o, { read: false }));
  };
  const hub = watchHub(lister);
  /** The object as stored (defaults filled in), or what the API server would refuse in it. */
  const invalid = (res: http.ServerResponse, message: string) =>
    send(res, 422, status(422, message, "Invalid"));

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const text = await readBody(req);
    const body = text ? (parse(text) as Record<string, unknown>) : undefined;
    requests.push({
      method: req.method ?? "",
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      contentType: req.headers["content-type"],
      authorization: req.headers.authorization,
      body,
    });
    if (req.headers.authorization !== `Bearer ${token}`)
      return send(res, 401, status(401, "Unauthorized", "Unauthorized"));
    const failure = failures.get(url.pathname);
    if (failure?.raw !== undefined) {
      res.writeHead(failure.status, { "content-type": "text/html" });
      return res.end(failure.raw);
    }
    if (failure)
      return send(res, failure.status, status(failure.status, failure.message, "Failed"));

    res.on("finish", () => hub.changed());
    const split = splitPath(url.pathname);
    const resources = split && API_RESOURCES[split.groupVersion];
    const listed = split && req.method === "GET" ? listOf(split) : null;
    if (listed) {
      const selector = url.searchParams.get("labelSelector") ?? "";
      if (url.searchParams.get("watch") === "true")
        return hub.serve(listed.kind, listed.namespace, selector, res);
      if (listed.kind !== "pods" || listed.namespace === null)
        return send(res, 200, {
          kind: "List",
          apiVersion: "v1",
          metadata: {},
          items: lister(listed.kind, listed.namespace, selector),
        });
    }
    const notFound = () =>
      send(res, 404, status(404, "the server could not find the requested resource", "NotFound"));
    if (!split || !resources) return notFound();
    // Pods: list by label selector, one pod, and a container's log (a Job's, followed; else a
    // crash loop's last words).
    if (
      req.method === "GET" &&
      split.groupVersion === "v1" &&
      split.rest[0] === "namespaces" &&
      split.rest[2] === "pods"
    ) {
      const namespace = split.rest[1]!;
      if (split.rest.length === 3) {
        const selector = url.searchParams.get("labelSelector") ?? "";
        return send(res, 200, {
          kind: "PodList",
          apiVersion: "v1",
          metadata: {},
          items: [...pods.list(namespace, selector), ...jobs.pods(namespace, selector)],
        });
      }
      if (split.rest.length === 4) {
        const pod = pods.get(namespace, split.rest[3]!) ?? jobs.pod(namespace, split.rest[3]!);
        if (!pod)
          return send(res, 404, status(404, `pods "${split.rest[3]}" not found`, "NotFound"));
        return send(res, 200, pod);
      }
      if (split.rest.length === 5 && split.rest[4] === "log") {
        if (pods.log(namespace, split.rest[3]!, url.searchParams, res)) return;
        if (jobs.log(namespace, split.rest[3]!, url.searchParams, res)) return;
        return send(res, 404, status(404, `pods "${split.rest[3]}" not found`, "NotFound"));
      }
    }
    // Create: POST to a namespaced collection.
    if (req.method === "POST" && split.rest.length === 3 && split.rest[0] === "namespaces") {
      const resource = resources.find((r) => r.name === split.rest[2] && r.namespaced);
      const metadata = (body?.metadata ?? {}) as Record<string, unknown>;
      if (!resource || body?.kind !== resource.kind || typeof metadata.name !== "string")
        return send(
          res,
          400,
          status(400, "the object does not match the request path", "BadRequest"),
        );
      const path = `${url.pathname}/${metadata.name}`;
      if (objects.has(path))
        return send(
          res,
          409,
          status(409, `${resource.name} "${metadata.name}" already exists`, "AlreadyExists"),
        );
      const admitted = admit(resource.kind, body!);
      if ("invalid" in admitted) return invalid(res, admitted.invalid);
      resourceVersion += 1;
      const stored = {
        ...admitted.object,
        metadata: { ...metadata, uid: randomUUID(), resourceVersion: `${resourceVersion}` },
      };
      objects.set(path, stored);
      if (resource.kind === "Job") jobs.created(path, stored);
      return send(res, 201, stored);
    }
    if (req.method === "GET" && split.rest.length === 0)
      return send(res, 200, {
        kind: "APIResourceList",
        apiVersion: "v1",
        groupVersion: split.groupVersion,
        resources: resources.map((r) => ({ ...r, singularName: "", verbs: ["delete", "patch"] })),
      });
    const target = objectOf(split.rest, resources);
    if (!target) return notFound();
    const { resource, name } = target;

    if (req.method === "GET") {
      const stored = objects.get(url.pathname);
      if (!stored)
        return send(res, 404, status(404, `${resource.name} "${name}" not found`, "NotFound"));
      if (resource.kind === "Job") return send(res, 200, jobs.withStatus(url.pathname, stored));
      if (resource.kind === "NetworkPolicy") return send(res, 200, stored);
      return send(res, 200, rollout.withStatus(url.pathname, stored));
    }
    // Replace: the whole object, refused (409) when it was changed since the caller's read.
    if (req.method === "PUT") {
      const stored = objects.get(url.pathname);
      if (!stored)
        return send(res, 404, status(404, `${resource.name} "${name}" not found`, "NotFound"));
      const refusal = replaceRefusal(stored, body, resource, name);
      if (refusal) return send(res, refusal.code, refusal);
      const metadata = body!.metadata as Record<string, unknown>;
      const uid = (stored.metadata as { uid?: string }).uid;
      const admitted = admit(resource.kind, body!);
      if ("invalid" in admitted) return invalid(res, admitted.invalid);
      resourceVersion += 1;
      const replaced = {
        ...admitted.object,
        metadata: { ...metadata, uid, resourceVersion: `${resourceVersion}` },
      };
      objects.set(url.pathname, replaced);
      return send(res, 200, replaced);
    }
    if (req.method === "PATCH" && req.headers["content-type"] === MERGE_PATCH) {
      const stored = objects.get(url.pathname);
      if (!stored)
        return send(res, 404, status(404, `${resource.name} "${name}" not found`, "NotFound"));
      const admitted = admit(resource.kind, mergePatch(stored, body) as Record<string, unknown>);
      if ("invalid" in admitted) return invalid(res, admitted.invalid);
      resourceVersion += 1;
      const patched = admitted.object;
      (patched.metadata as Record<string, unknown>).resourceVersion = `${resourceVersion}`;
      objects.set(url.pathname, patched);
      jobs.patched(url.pathname, patched);
      return send(res, 200, patched);
    }
    if (req.method === "PATCH") {
      if (req.headers["content-type"] !== APPLY_PATCH)
        return send(
          res,
          415,
          status(415, "only server-side apply is served", "UnsupportedMediaType"),
        );
      if (!url.searchParams.get("fieldManager"))
        return send(
          res,
          422,
          status(422, "fieldManager is required for apply requests", "Invalid"),
        );
      const metadata = (body?.metadata ?? {}) as Record<string, unknown>;
      if (body?.kind !== resource.kind || metadata.name !== name)
        return send(
          res,
          400,
          status(400, "the object does not match the request path", "BadRequest"),
        );
      const created = !objects.has(url.pathname);
      const admitted = admit(resource.kind, body!);
      if ("invalid" in admitted) return invalid(res, admitted.invalid);
      resourceVersion += 1;
      const stored = {
        ...admitted.object,
        metadata: { ...metadata, resourceVersion: `${resourceVersion}` },
      };
      objects.set(url.pathname, stored);
      rollout.applied(url.pathname);
      pods.sync();
      return send(res, created ? 201 : 200, stored);
    }
    if (req.method === "DELETE") {
      const deleted = objects.get(url.pathname);
      if (!deleted || !objects.delete(url.pathname))
        return send(res, 404, status(404, `${resource.name} "${name}" not found`, "NotFound"));
      // A Job's dependents are orphaned unless the caller asks otherwise (batch/v1's default).
      const policy = url.searchParams.get("propagationPolicy");
      const cascade = policy ? policy !== "Orphan" : resource.kind !== "Job";
      if (cascade) collectOwnedBy(objects, (deleted.metadata as { uid?: string }).uid ?? "");
      jobs.deleted(url.pathname, cascade);
      pods.sync();
      return send(res, 200, {
        kind: "Status",
        apiVersion: "v1",
        metadata: {},
        status: "Success",
        details: { name, kind: resource.name },
      });
    }
    send(res, 405, status(405, "method not allowed", "MethodNotAllowed"));
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dir = mkdtempSync(path.join(tmpdir(), "fake-kube-"));

  return {
    url,
    token,
    requests,
    objects,
    setRollout: (behaviour, options) => rollout.set(behaviour, options),
    setBuildJob: (script) => jobs.set(script),
    finishJob: (name, end) => jobs.finish(name, end),
    appendJobLog: (name, lines) => jobs.append(name, lines),
    cutJobLogs: (name) => jobs.cut(name),
    jobLogFollowed: (name) => jobs.followed(name),
    printLog: (deployment, lines, options) => {
      pods.print(deployment, lines, options);
    },
    crashLoop: (deployment, reason, lastWords) => pods.crashLoop(deployment, reason, lastWords),
    oomKill: (deployment) => pods.oomKill(deployment),
    heal: (deployment) => pods.heal(deployment),
    drain: () => pods.drain(),
    uncordon: () => pods.uncordon(),
    podLogFollowed: (deployment) => pods.followed(deployment),
    watchCount: () => hub.count(),
    closeWatches: () => hub.closeAll(),
    failOn: (p, code, message, raw) => void failures.set(p, { status: code, message, raw }),
    recover: (p) => void failures.delete(p),
    kubeconfig(userToken = token) {
      const file = path.join(dir, `config-${randomBytes(4).toString("hex")}`);
      const config = {
        apiVersion: "v1",
        kind: "Config",
        // Client 1.4 refuses a plain-http server unless TLS verification is explicitly skipped.
        clusters: [{ name: "fake", cluster: { server: url, "insecure-skip-tls-verify": true } }],
        users: [{ name: "hangar", user: { token: userToken } }],
        contexts: [{ name: "fake", context: { cluster: "fake", user: "hangar" } }],
        "current-context": "fake",
      };
      writeFileSync(file, JSON.stringify(config));
      return file;
    },
    stop: () =>
      new Promise((resolve, reject) => {
        hub.closeAll();
        server.close((e) => (e ? reject(e) : resolve()));
        server.closeAllConnections(); // the client keeps connections alive
      }),
  };
}
