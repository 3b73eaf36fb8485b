import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Building2Icon } from "@/components/ui/icons";
import { signOutAction } from "@/server/auth/actions";

export function NoWorkspace() {
  return (
    <main id="main" className="mx-auto max-w-xl px-4 py-24">
      <EmptyState
        icon={Building2Icon}
        title="No workspace yet"
        description="You are signed in, but you are not a member of any workspace. Ask an admin to add you."
        action={
          <form action={signOutAction}>
            <Button type="submit" variant="secondary">
              Sign out
            </Button>
          </form>
        }
      />
    </main>
  );
}
