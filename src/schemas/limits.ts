import { z } from "zod";

/**
 * The longest text each kind of field accepts (issue 11): one table, enforced at parse time by
 * both doors and published in the contract (section 3). Longer input is a 422, never stored
 * (every revision copies its configuration) nor echoed back.
 */
export const TEXT_LIMITS = {
  /** Display names: providers, integrations, keys, workspaces, members. */
  name: 200,
  /** URLs: code hosts, OAuth endpoints, repositories, custom domains. */
  url: 2048,
  /** install_command, build_command. */
  command: 4096,
  /** Paths inside a repository or upload: graph_config_path, source_tarball_path. */
  path: 1024,
  /** Git refs (repo_ref). */
  ref: 255,
  /** Container image references (image_uri, image_version). */
  image: 1024,
  /** Identifiers: template_id, secret reference names and keys, namespaces. */
  identifier: 253,
  /** Secret names (environment variable names). */
  secretName: 256,
  /** Tag keys and values. */
  tag: 256,
} as const;

/** Secret values, in UTF-8 bytes. */
export const MAX_SECRET_VALUE_BYTES = 64 * 1024;
/** Arrays and objects nested deeper than this in a JSON body are refused (422). */
export const MAX_JSON_DEPTH = 32;

export type TextKind = keyof typeof TEXT_LIMITS;

/** A string of one kind, at most its table length. */
export const boundedText = (kind: TextKind) =>
  z.string().max(TEXT_LIMITS[kind], `At most ${TEXT_LIMITS[kind]} characters`);
