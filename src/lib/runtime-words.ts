// Kubernetes' health words in plain words, in one place: the header badge, the deployments list,
// the Status field and Running all say why a deployment is unhealthy through `plainReason`, per
// component through `componentsLine` and its events through `plainEvent`. The API keeps
// Kubernetes' own words (contract 5.7). Plain values: the browser imports it.

/** The fields of a runtime state (schemas/runtime.ts) these words read. */
interface Component {
  component: string;
  ready: number;
  desired: number;
  restarts?: number;
}
interface RuntimeEvent {
  at: string | null;
  reason: string;
  message: string;
  object?: string;
  count: number;
}
interface Health {
  healthy: boolean | null;
  reason: string | null;
  restarts: number;
  last_termination: { reason: string; exit_code: number | null } | null;
}

/** The components running the revision's image (cluster/health.ts counts the same ones). */
const APP_COMPONENTS = new Set(["server", "queue", "orchestrator", "executor"]);

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

const exitWords: Record<number, string> = {
  0: "exited",
  1: "error",
  2: "error",
  126: "cannot run its command",
  127: "command not found",
  134: "aborted",
  137: "killed",
  139: "segmentation fault",
  143: "terminated",
};

/** "out of memory, exit 137", "error, exit 1": why a container's last run ended. */
export function terminationWords(reason: string, exitCode: number | null): string {
  const code = exitCode === null ? "" : `, exit ${exitCode}`;
  if (reason === "OOMKilled") return `out of memory${code}`;
  if (reason === "Evicted") return "evicted from its node";
  if (reason === "Completed") return `exited${code}`;
  if (reason === "Error" || reason === "ContainerCannotRun")
    return `${exitCode === null ? "error" : (exitWords[exitCode] ?? "error")}${code}`;
  return `${reason}${code}`;
}

const restartsWords = (n: number) => (n > 0 ? ` — ${n} restart${n === 1 ? "" : "s"}` : "");

const fixedWords: Record<string, string> = {
  ImagePullBackOff: "Cannot pull the image: Kubernetes keeps retrying",
  ErrImagePull: "Cannot pull the image",
  InvalidImageName: "The image name is invalid",
  CreateContainerConfigError:
    "Cannot start: its container configuration is invalid (a missing secret or config map?)",
  CreateContainerError: "Cannot create its container",
  RunContainerError: "Cannot start its container",
  Unschedulable: "Waiting for a node: no node can take its pods",
  Evicted: "Evicted: its node was drained",
};

/**
 * Why a deployment is not healthy, in plain words, said once: "Crashing: out of memory, exit 137
 * — 6 restarts". Null when it is healthy or not observed.
 */
export function plainReason(o: Health): string | null {
  if (o.healthy !== false || !o.reason) return null;
  const waiting = o.reason.replace(/ \(CrashLoopBackOff\)$/, "");
  if (o.reason.includes("CrashLoopBackOff") || waiting === "OOMKilled") {
    const t = o.last_termination;
    const why = t ? `: ${terminationWords(t.reason, t.exit_code)}` : "";
    return `Crashing${why}${restartsWords(o.restarts)}`;
  }
  const fixed = fixedWords[waiting];
  if (fixed) return `${fixed}${restartsWords(o.restarts)}`;
  const replicas = /^(\d+)\/(\d+) replicas ready$/.exec(o.reason);
  if (replicas) return `Not ready: ${replicas[1]} of ${replicas[2]} replicas ready`;
  if (o.reason === "Its workloads are not in the cluster")
    return "Not running: its workloads are not in the cluster";
  return o.reason;
}

/**
 * Health per component, the revision's own apart from what Hangar runs beside them:
 * "Server 1/1 · Queue 1/1 · Redis ready · Postgres ready".
 */
export function componentsLine(components: Component[]): string {
  const own = components.filter((c) => APP_COMPONENTS.has(c.component));
  const beside = components.filter((c) => !APP_COMPONENTS.has(c.component));
  const order = ["server", "queue", "orchestrator", "executor"];
  own.sort((a, b) => order.indexOf(a.component) - order.indexOf(b.component));
  return [
    ...own.map((c) => `${capital(c.component)} ${c.ready}/${c.desired}`),
    ...beside.map(
      (c) =>
        `${capital(c.component)} ${c.ready >= c.desired ? "ready" : `not ready (${c.ready}/${c.desired})`}`,
    ),
  ].join(" · ");
}

/** "12:03:07" in the viewer's clock. */
export function clockTime(iso: string): string {
  return new Date(iso).toLocaleTimeString("en-GB", { hour12: false });
}

const eventWords: [RegExp, (m: RegExpExecArray) => string][] = [
  [
    /^Back-off restarting failed container(?: (\S+))?/,
    (m) => `Back-off restarting the ${m[1] ?? "failed"} container`,
  ],
  [/^Back-off pulling image "?([^"\s]+)"?/, (m) => `Back-off pulling the image ${m[1]}`],
  [/^Liveness probe failed/, () => "Liveness check failed"],
  [/^Readiness probe failed/, () => "Readiness check failed"],
];

/** A Warning event's message without kubelet's pod names and uids, in a sentence. */
export function eventMessage(message: string): string {
  for (const [pattern, words] of eventWords) {
    const m = pattern.exec(message);
    if (m) return words(m);
  }
  return message
    .replace(/ in pod \S+?_\S+?\([0-9a-f-]{36}\)/g, "")
    .replace(/\s*pod=\S+/g, "")
    .replace(/\([0-9a-f-]{36}\)/g, "")
    .trim();
}

/** "12:03:07 · Back-off restarting the server container (×2)". */
export function plainEvent(e: RuntimeEvent): string {
  const at = e.at ? `${clockTime(e.at)} · ` : "";
  return `${at}${eventMessage(e.message) || e.reason}${e.count > 1 ? ` (×${e.count})` : ""}`;
}
