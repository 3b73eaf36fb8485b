"use client";

import { Eye, EyeOff, KeyRound, Trash2 } from "lucide-react";
import { useState } from "react";
import { get, useFormContext, useWatch } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import type { SecretsValues } from "./secret-rows";

/** Name and value of one secret; a stored value is never fetched, so only typed text can be revealed. */
export function SecretRowFields({
  index,
  canEdit,
  onRemove,
}: {
  index: number;
  canEdit: boolean;
  onRemove: () => void;
}) {
  const { register, setValue, formState } = useFormContext<SecretsValues>();
  const row = useWatch<SecretsValues, `secrets.${number}`>({ name: `secrets.${index}` });
  const [revealed, setRevealed] = useState(false);
  const message = (field: "name" | "value") =>
    (get(formState.errors, `secrets.${index}.${field}`) as { message?: string } | undefined)
      ?.message;
  const nameError = message("name");
  const valueError = message("value");
  const label = row.name || `secret ${index + 1}`;
  const nameId = `secret-${index}-name`;
  const valueId = `secret-${index}-value`;
  const typed = !row.keep && row.value !== "";

  return (
    <li className="grid gap-2 sm:grid-cols-[minmax(0,2fr)_minmax(0,3fr)_auto] sm:items-start">
      <div className="space-y-1">
        <label htmlFor={nameId} className="sr-only">
          Name of {label}
        </label>
        <div className="relative">
          <KeyRound
            aria-hidden
            className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-zinc-400"
          />
          <Input
            id={nameId}
            placeholder="NAME"
            autoComplete="off"
            spellCheck={false}
            readOnly={row.stored || !canEdit}
            title={
              row.stored ? "Stored secrets keep their name: remove and add to rename" : undefined
            }
            className="pl-8 font-mono read-only:bg-zinc-50 dark:read-only:bg-zinc-900"
            aria-invalid={!!nameError}
            aria-describedby={nameError ? `${nameId}-error` : undefined}
            {...register(`secrets.${index}.name`)}
          />
        </div>
        {nameError && (
          <p id={`${nameId}-error`} className="text-xs text-red-700 dark:text-red-400">
            {nameError}
          </p>
        )}
      </div>
      <div className="space-y-1">
        <label htmlFor={valueId} className="sr-only">
          Value of {label}
        </label>
        <div className="relative">
          <Input
            id={valueId}
            type={revealed && typed ? "text" : "password"}
            autoComplete="new-password"
            spellCheck={false}
            readOnly={!canEdit}
            placeholder={row.keep ? "•••••••• stored value (type to replace)" : "value"}
            className="pr-10 font-mono"
            aria-invalid={!!valueError}
            aria-describedby={valueError ? `${valueId}-error` : undefined}
            {...register(`secrets.${index}.value`, {
              onChange: (e: { target: { value: string } }) =>
                setValue(`secrets.${index}.keep`, row.stored && e.target.value === ""),
            })}
          />
          {typed && (
            <button
              type="button"
              onClick={() => setRevealed((r) => !r)}
              aria-label={`${revealed ? "Hide" : "Show"} value of ${label}`}
              aria-pressed={revealed}
              className="absolute top-1.5 right-1.5 rounded p-1 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:hover:bg-zinc-800 dark:hover:text-zinc-100"
            >
              {revealed ? (
                <EyeOff aria-hidden className="size-4" />
              ) : (
                <Eye aria-hidden className="size-4" />
              )}
            </button>
          )}
        </div>
        {valueError && (
          <p id={`${valueId}-error`} className="text-xs text-red-700 dark:text-red-400">
            {valueError}
          </p>
        )}
      </div>
      {canEdit && (
        <Button variant="ghost" size="sm" aria-label={`Remove ${label}`} onClick={onRemove}>
          <Trash2 aria-hidden className="size-4" />
        </Button>
      )}
    </li>
  );
}
