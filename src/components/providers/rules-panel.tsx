import clsx from "clsx";
import { CheckCircle2, Circle } from "lucide-react";
import { isSecureUrl } from "@/schemas/web-url";
import { providerRules, type ProviderFormValues } from "./provider-form-model";

/** The contract's rules for the form as it stands, ticked off while the user types. */
export function RulesPanel({
  values,
  secretStored,
}: {
  values: ProviderFormValues;
  secretStored: boolean;
}) {
  const urls = [values.auth_url, values.token_url];
  const rules = [
    {
      id: "https",
      text: "Authorization and token URLs are absolute https URLs (http only for localhost)",
      ok: urls.every(isSecureUrl),
    },
    ...providerRules(values, secretStored),
    ...(values.uses_pkce
      ? [
          {
            id: "challenge",
            text: `PKCE code challenge method: ${values.code_challenge_method}`,
            ok: true,
          },
        ]
      : []),
  ];
  return (
    <aside
      aria-labelledby="rules-title"
      className="h-fit rounded-lg border border-zinc-200 bg-white p-4 shadow-xs lg:sticky lg:top-32 dark:border-zinc-800 dark:bg-zinc-900/40"
    >
      <h2 id="rules-title" className="text-sm font-semibold">
        Rules for this provider
      </h2>
      <ul className="mt-3 space-y-2.5">
        {rules.map((rule) => (
          <li key={rule.id} className="flex gap-2 text-sm">
            {rule.ok ? (
              <CheckCircle2
                aria-hidden
                className="mt-0.5 size-4 shrink-0 text-emerald-600 dark:text-emerald-400"
              />
            ) : (
              <Circle aria-hidden className="mt-0.5 size-4 shrink-0 text-zinc-400" />
            )}
            <span
              className={clsx(
                rule.ok ? "text-zinc-700 dark:text-zinc-300" : "text-zinc-900 dark:text-zinc-100",
              )}
            >
              <span className="sr-only">{rule.ok ? "Met: " : "Not met yet: "}</span>
              {rule.text}
            </span>
          </li>
        ))}
      </ul>
    </aside>
  );
}
