"use client";

import { ClipboardPaste, Eye, EyeOff, Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { useFieldArray, type UseFormReturn } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { fieldClass, Input } from "@/components/ui/input";
import { parseEnv } from "./env-paste";
import type { ConfigureValues } from "./wizard-model";

/** Secret rows (name, masked value) plus a bulk paste of .env lines that adds or replaces. */
export function SecretsEditor({ form }: { form: UseFormReturn<ConfigureValues> }) {
  const { fields, append, remove, update } = useFieldArray({
    control: form.control,
    name: "secrets",
  });
  const [revealed, setRevealed] = useState<Set<string>>(new Set());
  const [pasting, setPasting] = useState(false);
  const [pasted, setPasted] = useState("");
  const errors = form.formState.errors.secrets;

  const applyPaste = () => {
    const current = form.getValues("secrets");
    for (const secret of parseEnv(pasted)) {
      const at = current.findIndex((s) => s.name === secret.name);
      if (at >= 0) update(at, secret);
      else append(secret);
    }
    setPasted("");
    setPasting(false);
  };

  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-medium text-zinc-700 dark:text-zinc-300">Secrets</legend>
      <p className="text-xs text-zinc-500 dark:text-zinc-400">
        Environment variables for the server. Values are encrypted and never shown again.
      </p>
      {fields.map((field, i) => {
        const nameError = errors?.[i]?.name?.message;
        const valueError = errors?.[i]?.value?.message;
        const shown = revealed.has(field.id);
        return (
          <div key={field.id} className="grid grid-cols-[1fr_1fr_auto_auto] items-start gap-2">
            <div>
              <label htmlFor={`secret-${i}-name`} className="sr-only">
                Secret {i + 1} name
              </label>
              <Input
                id={`secret-${i}-name`}
                placeholder="NAME"
                className="font-mono"
                aria-invalid={!!nameError}
                aria-describedby={nameError ? `secret-${i}-name-error` : undefined}
                {...form.register(`secrets.${i}.name`)}
              />
              {nameError && (
                <p
                  id={`secret-${i}-name-error`}
                  className="mt-1 text-xs text-red-600 dark:text-red-400"
                >
                  {nameError}
                </p>
              )}
            </div>
            <div>
              <label htmlFor={`secret-${i}-value`} className="sr-only">
                Secret {i + 1} value
              </label>
              <Input
                id={`secret-${i}-value`}
                type={shown ? "text" : "password"}
                autoComplete="off"
                placeholder="value"
                className="font-mono"
                aria-invalid={!!valueError}
                {...form.register(`secrets.${i}.value`)}
              />
              {valueError && (
                <p className="mt-1 text-xs text-red-600 dark:text-red-400">{valueError}</p>
              )}
            </div>
            <Button
              variant="ghost"
              size="sm"
              className="h-9"
              aria-label={`${shown ? "Hide" : "Show"} secret ${i + 1} value`}
              aria-pressed={shown}
              onClick={() =>
                setRevealed((s) => {
                  const next = new Set(s);
                  if (shown) next.delete(field.id);
                  else next.add(field.id);
                  return next;
                })
              }
            >
              {shown ? (
                <EyeOff aria-hidden className="size-4" />
              ) : (
                <Eye aria-hidden className="size-4" />
              )}
            </Button>
            <Button
              variant="ghost"
              size="sm"
              className="h-9"
              aria-label={`Remove secret ${i + 1}`}
              onClick={() => remove(i)}
            >
              <Trash2 aria-hidden className="size-4" />
            </Button>
          </div>
        );
      })}
      {pasting && (
        <div className="space-y-2">
          <label
            htmlFor="env-paste"
            className="text-sm font-medium text-zinc-700 dark:text-zinc-300"
          >
            Paste .env lines
          </label>
          <textarea
            id="env-paste"
            rows={5}
            value={pasted}
            onChange={(e) => setPasted(e.target.value)}
            placeholder={"OPENAI_API_KEY=sk-...\nLOG_LEVEL=info"}
            className={`${fieldClass} h-auto w-full py-2 font-mono`}
          />
          <div className="flex gap-2">
            <Button size="sm" onClick={applyPaste} disabled={!pasted.trim()}>
              Add these secrets
            </Button>
            <Button size="sm" variant="secondary" onClick={() => setPasting(false)}>
              Cancel
            </Button>
          </div>
        </div>
      )}
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" size="sm" onClick={() => append({ name: "", value: "" })}>
          <Plus aria-hidden className="size-4" />
          Add secret
        </Button>
        {!pasting && (
          <Button variant="secondary" size="sm" onClick={() => setPasting(true)}>
            <ClipboardPaste aria-hidden className="size-4" />
            Paste .env
          </Button>
        )}
      </div>
    </fieldset>
  );
}
