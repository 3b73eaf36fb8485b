"use client";

import { get, useFormContext, useWatch } from "react-hook-form";
import { previewSecrets, type PreviewSecrets } from "@/schemas/previews";
import { NumberField, SwitchField } from "./fields";

// Preview deployments (contract 5.6) in the settings form: on/off, how many may be open, when an
// idle one is deleted, and whether a preview gets the parent's secrets. The limits and their
// messages are the API's schema (previewsConfigInput), run by the form's resolver.

const secretChoices: Record<PreviewSecrets, { label: string; hint: string }> = {
  none: { label: "No secrets", hint: "Every preview runs without this deployment's secrets." },
  inherit: {
    label: "Copy this deployment's secrets",
    hint: "A preview of a branch of this repository gets a copy when it is created.",
  },
};

export function PreviewsFields() {
  const { control } = useFormContext();
  const buildOnPush = !!useWatch({ control, name: "source_config.build_on_push" });
  const enabled = !!useWatch({ control, name: "source_config.previews.enabled" });
  // Turning previews on needs build on push (the API refuses it otherwise); previews already on
  // stay switchable so they can be turned off.
  const locked = !buildOnPush && !enabled;
  const hint = locked
    ? "Needs Build on push: turn it on first, then every pull request into this branch gets a preview."
    : !buildOnPush
      ? "Build on push is off: turn it back on, or turn previews off."
      : "Build every pull request into this branch as a deployment of its own, with its own URL. Saved without a new revision.";

  return (
    <fieldset className="space-y-4 rounded-md border border-zinc-200 p-4 dark:border-zinc-800">
      <legend className="px-1 text-sm font-semibold text-zinc-900 dark:text-zinc-100">
        Previews
      </legend>
      <SwitchField
        name="source_config.previews.enabled"
        label="Previews"
        hint={hint}
        disabled={locked}
      />
      <fieldset disabled={!enabled} className="space-y-4 disabled:opacity-60">
        <div className="grid gap-4 sm:grid-cols-2">
          <NumberField
            name="source_config.previews.max_open"
            label="Maximum open previews"
            step={1}
            hint="1 to 50. A pull request beyond it gets no preview."
          />
          <NumberField
            name="source_config.previews.ttl_hours"
            label="Delete after (hours without a push)"
            step={1}
            hint="1 to 720 (30 days). Closing the pull request deletes it at once."
          />
        </div>
        <SecretsChoice />
      </fieldset>
    </fieldset>
  );
}

function SecretsChoice() {
  const {
    register,
    formState: { errors },
  } = useFormContext();
  const name = "source_config.previews.secrets";
  const error = (get(errors, name) as { message?: string } | undefined)?.message;
  return (
    <fieldset className="space-y-2" aria-describedby="previews-secrets-note">
      <legend className="text-sm font-medium text-zinc-700 dark:text-zinc-300">
        Secrets for previews
      </legend>
      {previewSecrets.options.map((value) => (
        <label key={value} className="flex items-start gap-2 text-sm">
          <input
            type="radio"
            value={value}
            className="mt-0.5 size-4 shrink-0 accent-zinc-900 dark:accent-blue-500"
            {...register(name)}
          />
          <span>
            <span className="font-medium text-zinc-800 dark:text-zinc-200">
              {secretChoices[value].label}
            </span>
            <span className="block text-xs text-zinc-500 dark:text-zinc-400">
              {secretChoices[value].hint}
            </span>
          </span>
        </label>
      ))}
      <p
        id="previews-secrets-note"
        className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-xs text-amber-900 dark:border-amber-500/40 dark:bg-amber-500/10 dark:text-amber-200"
      >
        A pull request from a fork never gets secrets, whatever you choose here: it is built and
        deployed without them. Secrets an editor gives a fork&apos;s preview apply only to a commit
        they approve on the preview&apos;s page.
      </p>
      {error && <p className="text-xs text-red-700 dark:text-red-400">{error}</p>}
    </fieldset>
  );
}
