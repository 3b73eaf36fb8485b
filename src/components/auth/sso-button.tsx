import { KeyRound } from "lucide-react";
import { Button } from "@/components/ui/button";
import { signInWithSso } from "@/server/auth/actions";

export function SsoButton() {
  return (
    <form action={signInWithSso} className="mt-4">
      <div className="relative my-4 text-center text-xs text-zinc-500 uppercase">
        <span className="bg-white px-2 dark:bg-zinc-900">or</span>
        <span
          aria-hidden
          className="absolute inset-x-0 top-1/2 -z-10 border-t border-zinc-200 dark:border-zinc-800"
        />
      </div>
      <Button type="submit" variant="secondary" className="w-full">
        <KeyRound aria-hidden className="size-4" />
        Sign in with SSO
      </Button>
    </form>
  );
}
