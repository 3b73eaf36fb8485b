import { parseWebUrl } from "@/schemas/web-url";
import { AppError } from "@/server/errors";
import { findOutboundError } from "@/server/outbound/errors";

// A repository's archive at a commit (contract 7): the API's tarball endpoint answers with a
// redirect to another host (an archive host). Every hop goes through the outbound client (the
// address policy, checked on each), only to http(s) URLs without credentials, at most
// ARCHIVE_MAX_REDIRECTS times; the integration's credentials go to the API's origin only.

export const ARCHIVE_MAX_REDIRECTS = 5;

export interface ArchiveOptions {
  /** Largest archive read (its compressed bytes); more fails the download. */
  maxBytes: number;
  /** The whole download: every hop and the body. */
  timeoutMs: number;
  /** Aborted when the build no longer wants the archive (interrupted, timed out). */
  signal?: AbortSignal;
}

export interface RepositoryArchive {
  /** The gzipped tar as it streams; it errors past maxBytes or the deadline. */
  body: ReadableStream<Uint8Array>;
  /** The origins the download was redirected to, in order (never a path or a query). */
  redirects: string[];
}

/**
 * A download the code host's answers rule out (a retry would not help). Its message completes
 * "Could not fetch <repository> at <commit>: ...".
 */
export class ArchiveFailure extends Error {
  override name = "ArchiveFailure";
}

/** One hop's answer: a redirect's Location, or the body of a 2xx. */
export interface HopAnswer {
  status: number;
  location: string | null;
  body: ReadableStream<Uint8Array> | null;
}

export interface HopInit {
  signal: AbortSignal;
  timeoutMs: number;
  maxBytes: number;
}

export interface ArchiveHops {
  /** The origin of `api_base_url`: the only one that gets the integration's credentials. */
  apiOrigin: string;
  /** A GET with the integration's credentials (the API's origin). */
  credentialed(url: string, init: HopInit): Promise<HopAnswer>;
  /** A GET without any Authorization header (every other origin). */
  anonymous(url: string, init: HopInit): Promise<HopAnswer>;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** What went wrong while fetching (`refused`: what a refusal means there) or reading the archive. */
export function describeArchiveError(
  error: unknown,
  options: ArchiveOptions,
  refused?: string,
): Error {
  if (options.signal?.aborted) return error as Error;
  const outbound = findOutboundError(error);
  if (outbound?.kind === "too_large")
    return new ArchiveFailure(`the archive is larger than ${options.maxBytes} bytes`);
  if (outbound?.kind === "timeout" || (error as Error)?.name === "TimeoutError")
    return new ArchiveFailure(
      `the archive did not arrive within ${Math.round(options.timeoutMs / 1000)} s`,
    );
  if (outbound?.kind === "refused" && refused)
    return new ArchiveFailure(`${refused}: ${outbound.message}`);
  if (outbound?.kind === "unreachable")
    return new AppError("bad_gateway", `The archive could not be fetched: ${outbound.message}.`);
  return error as Error;
}

/** Where a redirect leads, or the failure naming why it is not followed (never its query). */
function nextHop(answer: HopAnswer, from: URL): URL {
  if (!answer.location)
    throw new ArchiveFailure(`${from.origin} answered HTTP ${answer.status} without a Location`);
  let next: URL;
  try {
    next = new URL(answer.location, from);
  } catch {
    throw new ArchiveFailure(`${from.origin} redirected to a Location that is not a URL`);
  }
  if (next.protocol !== "http:" && next.protocol !== "https:")
    throw new ArchiveFailure(
      `${from.origin} redirected to a ${next.protocol} URL, which is not followed (only http and https are)`,
    );
  if (!parseWebUrl(next.href))
    throw new ArchiveFailure(
      `${from.origin} redirected to a URL with credentials, which is not followed`,
    );
  return next;
}

/** Follows the tarball endpoint's redirects to the archive; throws ArchiveFailure or AppError. */
export async function downloadArchive(
  first: string,
  hops: ArchiveHops,
  options: ArchiveOptions,
): Promise<RepositoryArchive> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  const ends = Date.now() + options.timeoutMs;
  const redirects: string[] = [];
  let url = new URL(first);
  for (;;) {
    const init = { signal, timeoutMs: Math.max(1, ends - Date.now()), maxBytes: options.maxBytes };
    const hop = url.origin === hops.apiOrigin ? hops.credentialed : hops.anonymous;
    const refused = redirects.length
      ? `the redirect to ${url.origin} is not followed`
      : `${url.origin} is not called`;
    const answer = await hop(url.href, init).catch((error: unknown) => {
      throw describeArchiveError(error, options, refused);
    });
    if (answer.status >= 200 && answer.status < 300 && answer.body)
      return { body: answer.body, redirects };
    await answer.body?.cancel();
    if (!REDIRECT_STATUSES.has(answer.status)) {
      const failure = `${url.origin} answered HTTP ${answer.status}`;
      // A server error may pass (the step is retried); a 401 or 404 answers the same again.
      if (answer.status >= 500)
        throw new AppError("bad_gateway", `The archive could not be fetched: ${failure}.`);
      throw new ArchiveFailure(failure);
    }
    if (redirects.length >= ARCHIVE_MAX_REDIRECTS)
      throw new ArchiveFailure(
        `redirected more than ${ARCHIVE_MAX_REDIRECTS} times; Hangar stopped following`,
      );
    url = nextHop(answer, url);
    redirects.push(url.origin);
  }
}
