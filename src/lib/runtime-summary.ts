// The one-line health summary the overview and the API show: "2/2 ready · 3 restarts ·
// OOMKilled 4 min ago". Plain values: the browser imports it too.

import { tickFor } from "./relative-time";

export interface SummaryInput {
  healthy: boolean | null;
  reason: string | null;
  ready_replicas: number;
  desired_replicas: number;
  restarts: number;
  last_termination: { reason: string; at: string | null } | null;
}

/** "2/2 ready · 3 restarts · OOMKilled 4 min ago", as the overview shows it. */
export function summarize(o: SummaryInput, now = Date.now()): string {
  const parts = [`${o.ready_replicas}/${o.desired_replicas} ready`];
  if (o.restarts > 0) parts.push(`${o.restarts} restart${o.restarts === 1 ? "" : "s"}`);
  if (o.last_termination) {
    const at = o.last_termination.at ? Date.parse(o.last_termination.at) : null;
    parts.push(at ? `${o.last_termination.reason} ${ago(now - at)}` : o.last_termination.reason);
  }
  if (!o.healthy && o.reason && !parts.some((p) => p.startsWith(o.reason!))) parts.push(o.reason);
  return parts.join(" · ");
}

/**
 * How often the summary must be rendered again to stay true (its "OOMKilled 12 s ago"), or null
 * when it shows no time.
 */
export function summaryTick(o: SummaryInput, now = Date.now()): number | null {
  const at = o.last_termination?.at ? Date.parse(o.last_termination.at) : null;
  return at === null || Number.isNaN(at) ? null : tickFor(now - at);
}

export function ago(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86400)} d ago`;
}
