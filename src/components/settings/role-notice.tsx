import { ReadOnlyNotice } from "@/components/providers/read-only-notice";

/** Says which role a hidden control needs and which one the user has. */
export function RoleNotice({ needs, role, what }: { needs: string; role: string; what: string }) {
  return (
    <ReadOnlyNotice>
      Only {needs}s can {what}. Your role in this workspace is {role}.
    </ReadOnlyNotice>
  );
}

export const roleLabels = { admin: "Admin", editor: "Editor", viewer: "Viewer" } as const;
export const roles = ["admin", "editor", "viewer"] as const;
