/** The actions the services record (services/*.ts recordAudit calls), in words for people. */
export const auditActionWords = {
  "agent_connection.create": "Connected an agent",
  "agent_connection.delete": "Disconnected an agent",
  "api_key.create": "Created an API key",
  "api_key.narrow": "Narrowed an API key",
  "api_key.revoke": "Revoked an API key",
  "codehost_integration.create": "Added a code-host integration",
  "codehost_integration.delete": "Deleted a code-host integration",
  "codehost_integration.rotate_token": "Rotated an integration's token",
  "codehost_integration.update": "Edited a code-host integration",
  "codehost_integration.webhook_secret": "Changed a webhook secret",
  "deployment.create": "Created a deployment",
  "deployment.delete": "Deleted a deployment",
  "deployment.health": "Health changed (from the cluster)",
  "deployment.preview_approve": "Approved a fork preview's commit",
  "deployment.preview_create": "Opened a preview",
  "deployment.preview_delete": "Deleted a preview",
  "deployment.preview_push": "Updated a preview",
  "deployment.promote": "Promoted an image",
  "deployment.push": "Pushed an image",
  "deployment.push_token": "Issued a push token",
  "deployment.push_tokens_revoke": "Revoked push tokens",
  "deployment.redeploy": "Redeployed a revision",
  "deployment.update": "Changed a deployment",
  "deployment.upload_url": "Started a source upload",
  "listener.create": "Created a listener",
  "listener.delete": "Deleted a listener",
  "listener.update": "Edited a listener",
  "member.add": "Added a member",
  "member.change_org_role": "Changed an organization role",
  "member.change_role": "Changed a workspace role",
  "member.remove": "Removed a member",
  "oauth_provider.create": "Added an OAuth provider",
  "oauth_provider.delete": "Deleted an OAuth provider",
  "oauth_provider.mcp_discover": "Discovered an MCP server's OAuth",
  "oauth_provider.update": "Edited an OAuth provider",
  "oauth_token.connect": "Connected an account",
  "oauth_token.delete": "Removed a connected account",
  "oauth_token.update": "Refreshed a connected account",
  "organization.create": "Created the organization",
  "revision.interrupt": "Stopped a revision",
  "session.revoke": "Signed out a session",
  "tag_key.create": "Created a tag key",
  "tag_key.delete": "Deleted a tag key",
  "tag_key.rename": "Renamed a tag key",
  "tag_value.create": "Created a tag value",
  "tag_value.delete": "Deleted a tag value",
  "tag_value.rename": "Renamed a tag value",
  "tracing_project.delete": "Deleted a tracing project",
  "user.change_password": "Changed a password",
  "workspace.create": "Created a workspace",
} as const satisfies Record<string, string>;

/** The recorded actions, for the filter menu and the URL. */
export const auditActions = Object.keys(auditActionWords) as (keyof typeof auditActionWords)[];

/** An action in words (an action recorded by a newer version shows as recorded). */
export const auditActionLabel = (action: string): string =>
  (auditActionWords as Record<string, string>)[action] ?? action;

/** What kind of thing a target is, in words. */
export const targetTypeLabel = (type: string): string =>
  (
    ({
      codehost_integration: "code-host integration",
      oauth_provider: "OAuth provider",
      oauth_token: "connected account",
      api_key: "API key",
      agent_connection: "agent connection",
      tag_key: "tag key",
      tag_value: "tag value",
    }) as Record<string, string>
  )[type] ?? type.replace(/_/g, " ");

/** Rows per audit page. */
export const AUDIT_PAGE = 20;

/** The audit filter from the URL's search parameters (unknown or bad values are ignored). */
export function auditFilterOf(params: Record<string, string | string[] | undefined>): {
  action: string;
  offset: number;
} {
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";
  const action = one(params.action);
  const offset = Number(one(params.offset));
  return {
    action: (auditActions as readonly string[]).includes(action) ? action : "",
    offset: Number.isInteger(offset) && offset > 0 ? offset : 0,
  };
}
