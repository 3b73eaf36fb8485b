import { TRPCClientError } from "@trpc/client";
import { messageWords } from "@/schemas/field-words";
import { apiStatus } from "./status";

/** One entry of the API's FastAPI-style 422 body, as tRPC errors carry it in data.issues. */
export interface ApiIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

export interface ApiFailure {
  status: number | null;
  message: string;
  issues: ApiIssue[];
}

/**
 * What a failed tRPC call says, in the terms forms need: status, message, field issues; rules
 * the services state with field paths ("max_scale must be at least min_scale (5)") in words.
 */
export function apiFailure(error: unknown): ApiFailure {
  if (error instanceof TRPCClientError) {
    const data = (error.data ?? {}) as { issues?: ApiIssue[] | null };
    return {
      status: apiStatus(error),
      message: messageWords(error.message),
      issues: (data.issues ?? []).map((issue) => ({ ...issue, msg: messageWords(issue.msg) })),
    };
  }
  return {
    status: null,
    message: error instanceof Error ? error.message : String(error),
    issues: [],
  };
}

/**
 * An issue's form path ("source_config.resource_spec.cpu"): without the "body" root, nor the
 * procedure input's key that wraps the form's values (e.g. "patch").
 */
export function issuePath(issue: ApiIssue, inputKey?: string): string {
  let loc = issue.loc[0] === "body" ? issue.loc.slice(1) : issue.loc;
  if (inputKey && loc[0] === inputKey) loc = loc.slice(1);
  return loc.join(".");
}

/** Issues keyed by their form path, the first message for each. */
export function issuesByPath(issues: ApiIssue[], inputKey?: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) out[issuePath(issue, inputKey)] ??= issue.msg;
  return out;
}
