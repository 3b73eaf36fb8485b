/** The actions the services record (services/*.ts recordAudit calls), for the filter menu. */
export const auditActions = [
  "agent_connection.create",
  "agent_connection.delete",
  "api_key.create",
  "api_key.revoke",
  "codehost_integration.create",
  "deployment.create",
  "deployment.delete",
  "deployment.redeploy",
  "deployment.update",
  "member.add",
  "member.change_role",
  "member.remove",
  "oauth_provider.create",
  "oauth_provider.delete",
  "oauth_provider.mcp_discover",
  "oauth_provider.update",
  "oauth_token.connect",
  "oauth_token.delete",
  "oauth_token.update",
  "tag_key.create",
  "tag_key.delete",
  "tag_value.create",
  "tag_value.delete",
  "workspace.create",
] as const;

/** Rows per audit page. */
export const AUDIT_PAGE = 20;
