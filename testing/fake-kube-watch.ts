import type http from "node:http";

// Watches of the fake Kubernetes API (fake-kube-api.ts): `?watch=true` on a list of pods,
// deployments or events, in one namespace or all. As a real API server does for a watch without
// a resourceVersion, it first sends every current object as ADDED, then ADDED / MODIFIED /
// DELETED as they change (one JSON object a line). The fake compares each watcher's last view
// with the current one after every change, so nothing is missed and nothing repeats.

type Listed = object & { metadata?: object };
export type WatchKind = "pods" | "deployments" | "events";
export type Lister = (kind: WatchKind, namespace: string | null, selector: string) => Listed[];

interface Watcher {
  res: http.ServerResponse;
  kind: WatchKind;
  namespace: string | null;
  selector: string;
  seen: Map<string, string>;
}

const keyOf = (o: Listed) => {
  const metadata = (o.metadata ?? {}) as { name?: string; namespace?: string };
  return `${metadata.namespace ?? ""}/${metadata.name ?? ""}`;
};

export function watchHub(list: Lister) {
  const watchers = new Set<Watcher>();
  let version = 0;

  function send(watcher: Watcher) {
    const now = new Map<string, Listed>();
    for (const object of list(watcher.kind, watcher.namespace, watcher.selector))
      now.set(keyOf(object), object);
    for (const [key, object] of now) {
      const text = JSON.stringify(object);
      const before = watcher.seen.get(key);
      if (before === text) continue;
      version += 1;
      const stamped = {
        ...object,
        metadata: { ...object.metadata, resourceVersion: `${version}` },
      };
      watcher.res.write(
        `${JSON.stringify({ type: before ? "MODIFIED" : "ADDED", object: stamped })}\n`,
      );
      watcher.seen.set(key, text);
    }
    for (const [key, text] of watcher.seen) {
      if (now.has(key)) continue;
      watcher.res.write(`${JSON.stringify({ type: "DELETED", object: JSON.parse(text) })}\n`);
      watcher.seen.delete(key);
    }
  }

  return {
    serve(kind: WatchKind, namespace: string | null, selector: string, res: http.ServerResponse) {
      res.writeHead(200, { "content-type": "application/json" });
      const watcher: Watcher = { res, kind, namespace, selector, seen: new Map() };
      watchers.add(watcher);
      res.on("close", () => watchers.delete(watcher));
      send(watcher);
    },
    /** Something changed: every watcher gets what differs from its last view. */
    changed() {
      for (const watcher of watchers) send(watcher);
    },
    /** Ends every open watch, as an API server does after its timeout. */
    closeAll() {
      for (const watcher of watchers) watcher.res.end();
      watchers.clear();
    },
    count: () => watchers.size,
  };
}
