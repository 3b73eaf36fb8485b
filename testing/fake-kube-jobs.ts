import type http from "node:http";

// The Job half of the fake Kubernetes API (fake-kube-api.ts), for the Kubernetes image builder:
// a created Job runs once it is not suspended, as one pod (a fetch init container, then the
// builder) whose log can be followed. Tests script what the builder prints and how the Job
// ends (`setBuildJob`), or keep it running and end it themselves (`finishJob`), add lines while
// it runs (`appendJobLog`) or cut open log streams (`cutJobLogs`). Log lines carry timestamps
// four to a second, so a reader resuming from `sinceTime` (whole seconds) gets some again.

export type BuildJobEnd =
  | { status: "succeeded"; terminationMessage?: string }
  | { status: "failed"; exitCode?: number; reason?: string }
  | { status: "fetch_failed"; exitCode?: number }
  | { status: "deadline" }
  /** The kubelet evicted the pod (e.g. past its ephemeral-storage limit), saying `message`. */
  | { status: "evicted"; message: string };

export interface BuildJobScript {
  /** What the builder prints as soon as the Job starts. */
  log?: string[];
  /** What the fetch init container printed. */
  fetchLog?: string[];
  /** How the Job ends at once; omitted: it runs until `finishJob`. */
  end?: BuildJobEnd;
  /** The builder waits forever with this reason (an image that cannot be pulled). */
  waiting?: { reason: string; message: string };
}

type StoredObject = Record<string, unknown>;
interface Container {
  name: string;
}
interface PodTemplate {
  metadata?: { labels?: Record<string, string> };
  spec?: { initContainers?: Container[]; containers?: Container[] };
}

interface SimJob {
  namespace: string;
  name: string;
  template: PodTemplate;
  script: BuildJobScript;
  started: boolean;
  end: BuildJobEnd | null;
  /** [nanoseconds since the epoch, text] */
  lines: [bigint, string][];
  /** Open follow streams, and whether each asked for timestamps. */
  followers: Map<http.ServerResponse, boolean>;
  /** Deleted with its dependents (propagationPolicy Background/Foreground): the pod is gone. */
  collected: boolean;
}

const POD_SUFFIX = "-x7k2p";
const STEP_NS = 250_000_000n;

/** RFC 3339 with nanoseconds, trailing zeros trimmed, as Go's RFC3339Nano writes it. */
function stampOf(ns: bigint): string {
  const seconds = new Date(Number(ns / 1_000_000_000n) * 1000).toISOString().slice(0, 19);
  const fraction = (ns % 1_000_000_000n).toString().padStart(9, "0").replace(/0+$/, "");
  return `${seconds}${fraction ? `.${fraction}` : ""}Z`;
}

/** sinceTime as the API server passes it on: whole seconds. */
const secondsOf = (since: string) => BigInt(Math.floor(Date.parse(since) / 1000)) * 1_000_000_000n;

export function jobSimulator() {
  let script: BuildJobScript = { end: { status: "succeeded" } };
  const jobs = new Map<string, SimJob>();
  let clock = BigInt(Date.now()) * 1_000_000n;

  const byPod = (namespace: string, pod: string) =>
    [...jobs.values()].find(
      (j) =>
        j.namespace === namespace && `${j.name}${POD_SUFFIX}` === pod && j.started && !j.collected,
    );
  const builderName = (job: SimJob) => job.template.spec?.containers?.[0]?.name ?? "build";
  const fetchName = (job: SimJob) => job.template.spec?.initContainers?.[0]?.name ?? "fetch";

  function write(res: http.ServerResponse, [ns, text]: [bigint, string], stamps: boolean) {
    res.write(`${stamps ? `${stampOf(ns)} ` : ""}${text}\n`);
  }

  function append(job: SimJob, texts: string[]) {
    for (const text of texts) {
      clock += STEP_NS;
      const line: [bigint, string] = [clock, text];
      job.lines.push(line);
      for (const [res, stamps] of job.followers) write(res, line, stamps);
    }
  }

  function finish(job: SimJob, end: BuildJobEnd) {
    job.end = end;
    for (const res of job.followers.keys()) res.end();
    job.followers.clear();
  }

  function containerStatuses(job: SimJob) {
    const builder = { name: builderName(job), image: "builder", ready: false, restartCount: 0 };
    const end = job.end;
    if (end?.status === "fetch_failed")
      return [{ ...builder, state: { waiting: { reason: "PodInitializing" } } }];
    if (!end && job.script.waiting) return [{ ...builder, state: { waiting: job.script.waiting } }];
    if (!end) return [{ ...builder, ready: true, state: { running: {} } }];
    if (end.status === "succeeded")
      return [
        {
          ...builder,
          state: {
            terminated: { exitCode: 0, reason: "Completed", message: end.terminationMessage },
          },
        },
      ];
    const exitCode = end.status === "failed" ? (end.exitCode ?? 1) : 137;
    const reason = end.status === "failed" ? (end.reason ?? "Error") : "Error";
    return [{ ...builder, state: { terminated: { exitCode, reason } } }];
  }

  function podOf(job: SimJob) {
    const fetchExit = job.end?.status === "fetch_failed" ? (job.end.exitCode ?? 1) : 0;
    return {
      metadata: {
        name: `${job.name}${POD_SUFFIX}`,
        namespace: job.namespace,
        labels: job.template.metadata?.labels ?? {},
      },
      status: {
        phase: !job.end ? "Running" : job.end.status === "succeeded" ? "Succeeded" : "Failed",
        ...(job.end?.status === "evicted" ? { reason: "Evicted", message: job.end.message } : {}),
        initContainerStatuses: [
          {
            name: fetchName(job),
            image: "fetch",
            ready: false,
            restartCount: 0,
            state: {
              terminated: { exitCode: fetchExit, reason: fetchExit ? "Error" : "Completed" },
            },
          },
        ],
        containerStatuses: containerStatuses(job),
      },
    };
  }

  return {
    set(next: BuildJobScript) {
      script = next;
    },

    created(path: string, object: StoredObject) {
      const metadata = object.metadata as { name: string; namespace: string };
      const spec = object.spec as { template?: PodTemplate };
      jobs.set(path, {
        namespace: metadata.namespace,
        name: metadata.name,
        template: spec.template ?? {},
        script,
        started: false,
        end: null,
        lines: [],
        followers: new Map(),
        collected: false,
      });
    },

    /** A patch: a Job no longer suspended starts (and, scripted so, ends at once). */
    patched(path: string, object: StoredObject) {
      const job = jobs.get(path);
      if (!job || job.started || (object.spec as { suspend?: boolean }).suspend) return;
      job.started = true;
      append(job, job.script.log ?? []);
      if (job.script.end) finish(job, job.script.end);
    },

    deleted(path: string, cascade: boolean) {
      const job = jobs.get(path);
      if (!job) return;
      finish(job, job.end ?? { status: "failed", reason: "Deleted" });
      job.collected = cascade;
      if (cascade) jobs.delete(path);
    },

    /** A GET of a Job: its status as the Job controller would write it. */
    withStatus(path: string, object: StoredObject) {
      const job = jobs.get(path);
      if (!job?.started) return object;
      const end = job.end;
      const failed = (reason: string, message: string) => ({
        failed: 1,
        conditions: [{ type: "Failed", status: "True", reason, message }],
      });
      const status = !end
        ? { active: 1 }
        : end.status === "succeeded"
          ? { succeeded: 1, conditions: [{ type: "Complete", status: "True" }] }
          : end.status === "deadline"
            ? failed("DeadlineExceeded", "Job was active longer than specified deadline")
            : failed("BackoffLimitExceeded", "Job has reached the specified backoff limit");
      return { ...object, status };
    },

    /** The pods of started Jobs `labelSelector` selects (a Job past its deadline has none). */
    pods(namespace: string, labelSelector: string) {
      const wanted = labelSelector
        .split(",")
        .filter(Boolean)
        .map((pair) => pair.split("="));
      return [...jobs.values()]
        .filter((job) => job.namespace === namespace && job.started && !job.collected)
        .filter((job) => job.end?.status !== "deadline")
        .filter((job) => {
          const labels = job.template.metadata?.labels ?? {};
          return wanted.every(([key, value]) => labels[key!] === value);
        })
        .map(podOf);
    },

    pod(namespace: string, name: string) {
      const job = byPod(namespace, name);
      return job ? podOf(job) : null;
    },

    /** Serves a container's log (follow, timestamps, sinceTime, tailLines); false: no such pod. */
    log(namespace: string, pod: string, query: URLSearchParams, res: http.ServerResponse): boolean {
      const job = byPod(namespace, pod);
      if (!job) return false;
      res.writeHead(200, { "content-type": "text/plain" });
      if (query.get("container") === fetchName(job)) {
        const tail = Number(query.get("tailLines") ?? 0);
        const lines = job.script.fetchLog ?? [];
        res.end(
          lines
            .slice(tail ? -tail : 0)
            .map((l) => `${l}\n`)
            .join(""),
        );
        return true;
      }
      const since = query.get("sinceTime");
      const stamps = query.get("timestamps") === "true";
      for (const line of job.lines)
        if (!since || line[0] >= secondsOf(since)) write(res, line, stamps);
      if (query.get("follow") === "true" && !job.end) {
        job.followers.set(res, stamps);
        res.on("close", () => job.followers.delete(res));
      } else res.end();
      return true;
    },

    finish(name: string, end: BuildJobEnd) {
      const job = [...jobs.values()].find((j) => j.name === name);
      if (!job) throw new Error(`No Job ${name}`);
      finish(job, end);
    },

    append(name: string, lines: string[]) {
      const job = [...jobs.values()].find((j) => j.name === name);
      if (!job) throw new Error(`No Job ${name}`);
      append(job, lines);
    },

    /** Drops every open log stream of the Job, as a connection cut on the way would. */
    cut(name: string) {
      const job = [...jobs.values()].find((j) => j.name === name);
      for (const res of job?.followers.keys() ?? []) res.destroy();
      job?.followers.clear();
    },

    /** Whether anyone follows the Job's log now. */
    followed: (name: string) =>
      [...jobs.values()].some((j) => j.name === name && j.followers.size > 0),
  };
}
