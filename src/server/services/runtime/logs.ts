import { env } from "@/env";
import { harmlessLine, withinBytes } from "@/lib/log-text";
import type { RuntimeLogEntry, RuntimeLogQuery, RuntimeLogs } from "@/schemas/runtime";
import type { Actor } from "@/server/auth/actor";
import { clusterKubeconfig } from "@/server/cluster/kubeconfig";
import type { LogRead, PodLogLine, PodSummary } from "@/server/cluster/pod-logs";
import type { Db } from "@/server/db";
import { AppError, conflict, invalidField } from "@/server/errors";
import { findDeployment } from "../deployments/find";
import { readThroughListener } from "../listeners/log-requests";
import { levelOf, messageOf } from "./log-level";

// A deployment's runtime logs (contract 11, POST /v1/projects/{id}/deploy_logs): what its
// agent server and queue workers print, read from the cluster when asked (pass-through: Hangar
// stores none of it). As far back as the cluster keeps them: the current and previous run of
// each container of each pod, up to HANGAR_RUNTIME_LOG_LINES lines of each per request. A
// deployment on a listener is read by the listener, in its cluster, when asked (14.3). Whichever
// read them, messages are served harmless and cut (lib/log-text.ts), at most LOG_ANSWER_BYTES
// of them per answer.

export const sourceWords = (lines: number) =>
  `Read from the cluster when asked (Hangar keeps no copy): every replica's containers, current and previous run, as far back as the kubelet keeps them (by default 10 MiB per container), at most ${lines} lines per container per request.`;

const encodeCursor = (line: { key: string; id: string }) =>
  Buffer.from(`r:${line.key}|${line.id}`).toString("base64url");

function decodeCursor(offset: string): string {
  const match = /^r:(\S+\|[\w-]+)$/.exec(Buffer.from(offset, "base64url").toString());
  if (!match)
    throw invalidField(["body", "offset"], "offset must be a next_offset of an earlier answer");
  return match[1]!;
}

const orderKey = (line: PodLogLine) => `${line.key}|${line.id}`;

/** A line as the API serves it: its time to the millisecond, its text harmless and cut. */
export const entryOf = (
  line: PodLogLine,
  level: RuntimeLogEntry["level"],
  message: string,
): RuntimeLogEntry => ({
  id: line.id,
  timestamp: `${line.key.slice(0, 23)}Z`,
  level,
  message: harmlessLine(message, env.HANGAR_LOG_MAX_LINE),
  pod: line.pod,
  container: line.container,
  previous: line.previous,
});

const listenerWords = (computeId: string, lines: number) =>
  `Read by listener ${computeId} from its own cluster when asked, and sent only then (Hangar keeps no copy): every replica's containers, current and previous run, as far back as the kubelet keeps them (by default 10 MiB per container), at most ${lines} lines per container and 1 MiB per request.`;

type Reader = (
  read: LogRead & { keep: "newest" | "oldest" },
) => Promise<{ pods: PodSummary[]; lines: PodLogLine[]; truncated?: boolean }>;

/** Where the deployment runs, or why nothing of it does (409 with the contract's words). */
export async function placeOf(db: Db, actor: Actor, deploymentId: string, signal?: AbortSignal) {
  const deployment = await findDeployment(db, actor, deploymentId);
  const nothing = (why: string) =>
    conflict(
      `Nothing is running for deployment ${deployment.id}: ${why} Hangar's own deploy log is at POST /v1/projects/${deployment.id}/revisions/{revision_id}/deploy_logs.`,
    );
  if (!deployment.activeRevisionId) throw nothing("no revision has been deployed yet.");
  if (deployment.runtime === "dry_run")
    throw nothing(
      "Hangar runs in dry run (no cluster is configured), so no agent server was started and there are no runtime logs.",
    );
  const revision = await db.revision.findUniqueOrThrow({
    where: { id: deployment.activeRevisionId },
    select: { manifests: true },
  });
  const objects = (revision.manifests ?? []) as {
    kind?: string;
    metadata?: { namespace?: string };
  }[];
  const namespace = objects.find((o) => o.kind === "Deployment")?.metadata?.namespace;
  if (!namespace) throw nothing("its active revision applied no workload.");
  const cap = env.HANGAR_RUNTIME_LOG_LINES;
  if (deployment.listenerId) {
    const listener = await db.listener.findUniqueOrThrow({ where: { id: deployment.listenerId } });
    const read: Reader = (r) => readThroughListener(db, listener, r, signal);
    return {
      deployment,
      namespace,
      read,
      source: listenerWords(listener.computeId, cap),
      kubeconfig: null,
      listener,
    };
  }
  const pending = clusterKubeconfig();
  if (!pending)
    throw nothing("this Hangar has no cluster configured any more (HANGAR_KUBECONFIG is unset).");
  const kubeconfig = await pending;
  const { readDeploymentLogs } = await import("@/server/cluster/pod-logs");
  const read: Reader = async (r) => {
    try {
      return await readDeploymentLogs(kubeconfig, r);
    } catch (error) {
      throw new AppError(
        "bad_gateway",
        `Could not read the deployment's logs from the cluster: ${(error as Error).message}`,
      );
    }
  };
  return { deployment, namespace, read, source: sourceWords(cap), kubeconfig, listener: null };
}

/** The deployment's runtime logs, filtered and ordered as the deploy client asks. */
export async function queryRuntimeLogs(
  db: Db,
  actor: Actor,
  deploymentId: string,
  query: RuntimeLogQuery,
  signal?: AbortSignal,
): Promise<RuntimeLogs> {
  const place = await placeOf(db, actor, deploymentId, signal);
  const cap = env.HANGAR_RUNTIME_LOG_LINES;
  const filtered = Boolean(query.level || query.query || query.end_time || query.offset);
  const start = query.start_time ? new Date(query.start_time) : undefined;
  const read = await place.read({
    namespace: place.namespace,
    deploymentId: place.deployment.id,
    since: start,
    // Reading back from now needs only the page (and one line more, to know whether there is
    // more: a next_offset to load older lines with) unless filters thin it out.
    tailLines: query.order === "desc" && !filtered ? query.limit + 1 : cap,
    pod: query.pod,
    keep: query.order === "asc" ? "oldest" : "newest",
  });
  const after = query.offset ? decodeCursor(query.offset) : null;
  const end = query.end_time ? new Date(query.end_time).toISOString() : null;
  const needle = query.query?.toLowerCase();
  const lines = read.lines
    .map((line) => ({ line, level: levelOf(line.text), message: messageOf(line.text) }))
    .filter(({ line, level, message }) => {
      if (after && (query.order === "asc" ? orderKey(line) <= after : orderKey(line) >= after))
        return false;
      if (end && line.key.slice(0, 23) > end.slice(0, 23)) return false;
      if (query.level && level !== query.level) return false;
      return !needle || message.toLowerCase().includes(needle);
    })
    .sort((a, b) =>
      query.order === "asc"
        ? orderKey(a.line).localeCompare(orderKey(b.line))
        : orderKey(b.line).localeCompare(orderKey(a.line)),
    );
  const page = lines.slice(0, query.limit);
  const { kept } = withinBytes(
    page.map(({ line, level, message }) => entryOf(line, level, message)),
  );
  const last = lines[kept.length - 1];
  // Ascending, more may be printed: a cursor after the last line. Descending: only if more.
  const more = query.order === "asc" ? Boolean(last) : lines.length > kept.length;
  return {
    logs: kept,
    next_offset: more && last ? encodeCursor(last.line) : null,
    pods: read.pods.map(({ name, component, revision, ready, restarts }) => ({
      name,
      component,
      revision,
      ready,
      restarts,
    })),
    source: read.truncated
      ? `${place.source} This answer was cut to 1 MiB (the ${query.order === "asc" ? "oldest" : "newest"} lines kept): ask for one pod or a narrower time.`
      : place.source,
  };
}

/**
 * Every line the filters match (as far back as the cluster keeps them), oldest first, as text
 * lines for a download, and the file's name: `<deployment-name>-logs-<UTC time>.txt`.
 */
export async function downloadRuntimeLogs(
  db: Db,
  actor: Actor,
  deploymentId: string,
  filters: {
    level?: string | null;
    query?: string | null;
    pod?: string | null;
    start_time?: string | null;
  },
  signal?: AbortSignal,
): Promise<{ filename: string; lines: AsyncIterable<string> }> {
  const place = await placeOf(db, actor, deploymentId, signal);
  const read = await place.read({
    namespace: place.namespace,
    deploymentId: place.deployment.id,
    since: filters.start_time ? new Date(filters.start_time) : undefined,
    tailLines: env.HANGAR_RUNTIME_LOG_LINES,
    pod: filters.pod,
    keep: "newest",
  });
  const needle = filters.query?.toLowerCase();
  const stamp = new Date()
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  async function* lines() {
    const sorted = read.lines.sort((a, b) => orderKey(a).localeCompare(orderKey(b)));
    for (const line of sorted) {
      const level = levelOf(line.text);
      const message = messageOf(line.text);
      if (filters.level && level !== filters.level) continue;
      if (needle && !message.toLowerCase().includes(needle)) continue;
      const run = line.previous ? " (previous)" : "";
      // One line each: a message's own line feeds would start lines of their own.
      const text = harmlessLine(message, env.HANGAR_LOG_MAX_LINE).replace(/\n/g, "\u2424");
      yield `${line.key.slice(0, 23)}Z ${line.pod} ${line.container}${run} ${level} ${text}\n`;
    }
  }
  return { filename: `${place.deployment.name}-logs-${stamp}.txt`, lines: lines() };
}
