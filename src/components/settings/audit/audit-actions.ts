/** The actions the services record (services/*.ts recordAudit calls), for the filter menu. */
export const auditActions = [
  "agent_connection.create",
  "agent_connection.delete",
  "api_key.create",
  "api_key.revoke",
  "codehost_integration.create",
  "codehost_integration.delete",
  "codehost_integration.rotate_token",
  "codehost_integration.update",
  "codehost_integration.webhook_secret",
  "deployment.create",
  "deployment.delete",
  "deployment.push",
  "deployment.push_token",
  "deployment.push_tokens_revoke",
  "deployment.redeploy",
  "deployment.update",
  "deployment.upload_url",
  "listener.create",
  "listener.delete",
  "listener.update",
  "member.add",
  "member.change_org_role",
  "member.change_role",
  "member.remove",
  "oauth_provider.create",
  "oauth_provider.delete",
  "oauth_provider.mcp_discover",
  "oauth_provider.update",
  "oauth_token.connect",
  "oauth_token.delete",
  "oauth_token.update",
  "organization.create",
  "revision.interrupt",
  "session.revoke",
  "tag_key.create",
  "tag_key.delete",
  "tag_key.rename",
  "tag_value.create",
  "tag_value.delete",
  "tag_value.rename",
  "user.change_password",
  "workspace.create",
] as const;

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
