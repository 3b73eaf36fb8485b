import type {
  AnswerLogRequestInput,
  FollowLinesInput,
  ListenerLogRequest,
} from "@/schemas/listener-logs";
import type { RuntimeObservation } from "@/schemas/runtime";
import type {
  ListenerDeletionAnswer,
  ListenerDeletionReportInput,
  ListenerReportAnswer,
  ListenerReportInput,
  ListenerWork,
} from "@/schemas/listeners";

// The listener's side of the listener protocol (contract 14.3): plain HTTPS calls with its
// token. Reports are retried with the same report_id until Hangar answers (at least once).

export class ProtocolError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface ProtocolClient {
  claimWork(
    replicaId: string,
    waitSeconds: number,
    signal?: AbortSignal,
  ): Promise<ListenerWork | null>;
  report(
    revisionId: string,
    report: ListenerReportInput,
    signal?: AbortSignal,
  ): Promise<ListenerReportAnswer>;
  reportDeletion(
    deploymentId: string,
    report: ListenerDeletionReportInput,
    signal?: AbortSignal,
  ): Promise<ListenerDeletionAnswer>;
  /** The listener's deployments that run, with their active revision's number (live health). */
  runtimeTargets(
    replicaId: string,
    ids?: string[],
  ): Promise<{ deployments: { deployment_id: string; revision_number: number }[] }>;
  reportRuntime(
    deploymentId: string,
    report: { replica_id: string; observation: RuntimeObservation },
  ): Promise<{ deployment_id: string; status: string; changed: boolean }>;
  /** Long-polls for runtime log reads Hangar asks of this cluster (listener/logs.ts). */
  claimLogRequests(
    replicaId: string,
    waitSeconds: number,
    signal?: AbortSignal,
  ): Promise<ListenerLogRequest[]>;
  /** Answers one (not retried: the asker waits only seconds). */
  answerLogRequest(requestId: string, answer: AnswerLogRequestInput): Promise<unknown>;
  /** Sends a followed log's new lines (not retried: the next post carries what failed). */
  followLines(requestId: string, body: FollowLinesInput): Promise<unknown>;
}

const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });

export function protocolClient(baseUrl: string, token: string): ProtocolClient {
  async function post<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T> {
    const res = await fetch(new URL(path, baseUrl), {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
      signal,
    });
    const text = await res.text();
    if (!res.ok) {
      let detail = text;
      try {
        detail = JSON.stringify((JSON.parse(text) as { detail?: unknown }).detail);
      } catch {
        // not JSON: keep the text
      }
      throw new ProtocolError(res.status, `Hangar answered ${res.status}: ${detail.slice(0, 300)}`);
    }
    return JSON.parse(text) as T;
  }

  /** Network failures and 5xx/429 are retried; 4xx are answers. */
  async function retried<T>(call: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await call();
      } catch (error) {
        const permanent =
          error instanceof ProtocolError && error.status < 500 && error.status !== 429;
        if (permanent || signal?.aborted || attempt >= 20) throw error;
        await pause(Math.min(500 * 2 ** attempt, 5_000), signal);
      }
    }
  }

  return {
    async claimWork(replicaId, waitSeconds, signal) {
      const answer = await retried(
        () =>
          post<{ work: ListenerWork | null }>(
            "/v2/listener/work",
            { replica_id: replicaId, wait_seconds: waitSeconds },
            signal,
          ),
        signal,
      );
      return answer.work;
    },
    report: (revisionId, report, signal) =>
      retried(
        () =>
          post<ListenerReportAnswer>(
            `/v2/listener/revisions/${revisionId}/reports`,
            report,
            signal,
          ),
        signal,
      ),
    runtimeTargets: (replicaId, ids) =>
      retried(() =>
        post("/v2/listener/runtime/targets", { replica_id: replicaId, deployment_ids: ids }),
      ),
    reportRuntime: (deploymentId, report) =>
      retried(() => post(`/v2/listener/deployments/${deploymentId}/runtime`, report)),
    async claimLogRequests(replicaId, waitSeconds, signal) {
      const answer = await retried(
        () =>
          post<{ log_requests: ListenerLogRequest[] }>(
            "/v2/listener/log-requests",
            { replica_id: replicaId, wait_seconds: waitSeconds, follow: true },
            signal,
          ),
        signal,
      );
      return answer.log_requests;
    },
    answerLogRequest: (requestId, answer) => post(`/v2/listener/log-requests/${requestId}`, answer),
    followLines: (requestId, body) => post(`/v2/listener/log-requests/${requestId}/lines`, body),
    reportDeletion: (deploymentId, report, signal) =>
      retried(
        () =>
          post<ListenerDeletionAnswer>(
            `/v2/listener/deployments/${deploymentId}/reports`,
            report,
            signal,
          ),
        signal,
      ),
  };
}
