import { Watch, type KubeConfig } from "@kubernetes/client-node";
import { describeError, log } from "@/server/log";

// One list-then-watch of one kind of object (a Kubernetes informer, small): the current objects
// by namespace/name, kept up to date by a single watch; when the watch ends (the API server's
// timeout, a cut connection, 410 Gone) the list is read again whole and a new watch started.
// `onChange` gets every object that was added, changed or removed.

export interface WatchedObject {
  metadata?: { name?: string; namespace?: string; resourceVersion?: string };
}

export interface CacheOptions<T extends WatchedObject> {
  kubeconfig: KubeConfig;
  /** The watch path, e.g. /api/v1/pods or /api/v1/namespaces/<ns>/events. */
  path: string;
  query: Record<string, string>;
  /** The same list read whole (the typed client's list call). */
  list: () => Promise<{ items: T[]; metadata?: { resourceVersion?: string } }>;
  onChange: (object: T, gone: boolean) => void;
  /** After a whole list was (re)read, with what it replaced. */
  onResync?: () => void;
  retryMs?: number;
}

export interface ClusterCache<T> {
  objects: Map<string, T>;
  stop(): void;
}

const keyOf = (o: WatchedObject) => `${o.metadata?.namespace ?? ""}/${o.metadata?.name ?? ""}`;

export function clusterCache<T extends WatchedObject>(options: CacheOptions<T>): ClusterCache<T> {
  const objects = new Map<string, T>();
  const watch = new Watch(options.kubeconfig);
  let controller: AbortController | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  const retryMs = options.retryMs ?? 1000;

  async function list(): Promise<string | undefined> {
    const body = await options.list();
    const fresh = new Map((body.items ?? []).map((o) => [keyOf(o), o]));
    for (const [key, old] of objects) if (!fresh.has(key)) options.onChange(old, true);
    for (const [key, object] of fresh) {
      const old = objects.get(key);
      if (!old || old.metadata?.resourceVersion !== object.metadata?.resourceVersion)
        options.onChange(object, false);
    }
    objects.clear();
    for (const [key, object] of fresh) objects.set(key, object);
    options.onResync?.();
    return body.metadata?.resourceVersion;
  }

  function again(error?: unknown) {
    controller = null;
    if (stopped) return;
    if (error) log.warn("cluster watch ended", { path: options.path, ...describeError(error) });
    timer = setTimeout(() => void start(), error ? retryMs : 0);
    timer.unref?.();
  }

  async function start(): Promise<void> {
    if (stopped) return;
    try {
      const resourceVersion = await list();
      if (stopped) return;
      controller = await watch.watch(
        options.path,
        {
          ...options.query,
          ...(resourceVersion ? { resourceVersion } : {}),
          allowWatchBookmarks: true,
        },
        (type, object: T) => {
          if (type === "BOOKMARK" || type === "ERROR") return;
          const key = keyOf(object);
          if (type === "DELETED") objects.delete(key);
          else objects.set(key, object);
          options.onChange(object, type === "DELETED");
        },
        (error) => again(error),
      );
    } catch (error) {
      again(error ?? new Error("watch failed"));
    }
  }

  void start();
  return {
    objects,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      controller?.abort();
    },
  };
}
