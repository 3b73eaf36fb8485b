import { ReadOnlyNotice } from "@/components/providers/read-only-notice";

/** Says which role a hidden control needs and which one the user has. */
export function RoleNotice({ needs, role, what }: { needs: string; role: string; what: string }) {
  return (
    <ReadOnlyNotice>
      Only {needs}s can {what}. Your role in this workspace is {role}.
    </ReadOnlyNotice>
  );
}

/** Organization resources (providers, integrations) need an organization role. */
export function OrgRoleNotice({ role, what }: { role: string; what: string }) {
  return (
    <ReadOnlyNotice>
      Only organization owners and admins can {what}. Your organization role is {role}.
    </ReadOnlyNotice>
  );
}

export const canChangeOrganization = (orgRole: string | undefined) =>
  orgRole === "owner" || orgRole === "admin";

export const orgRoleLabels = { owner: "Owner", admin: "Admin", member: "Member" } as const;
export const orgRoles = ["owner", "admin", "member"] as const;

export const roleLabels = { admin: "Admin", editor: "Editor", viewer: "Viewer" } as const;
export const roles = ["admin", "editor", "viewer"] as const;
