"use client";

import type { ReactNode } from "react";
import { get, useFormContext, type RegisterOptions } from "react-hook-form";
import { describedBy, FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Switch } from "@/components/ui/switch";

const idOf = (name: string) => `field-${name.replaceAll(".", "-")}`;
const emptyToNull = (v: unknown) => (v === "" || v == null ? null : v);
const toNumber = (v: unknown) => (v === "" || v == null ? null : Number(v));

function useField(name: string) {
  const {
    register,
    formState: { errors },
  } = useFormContext();
  const error = (get(errors, name) as { message?: string } | undefined)?.message;
  return { register, error, id: idOf(name) };
}

/** A text input whose empty value is null, as the API's nullish fields expect. */
export function TextField({
  name,
  label,
  hint,
  placeholder,
  mono = true,
  type = "text",
}: {
  name: string;
  label: string;
  hint?: string;
  placeholder?: string;
  mono?: boolean;
  type?: "text" | "url";
}) {
  const { register, error, id } = useField(name);
  return (
    <FormField id={id} label={label} hint={hint} error={error}>
      <Input
        id={id}
        type={type}
        placeholder={placeholder}
        autoComplete="off"
        spellCheck={false}
        className={mono ? "font-mono" : undefined}
        aria-invalid={!!error}
        aria-describedby={describedBy(id, { hint, error })}
        {...register(name, { setValueAs: emptyToNull } as RegisterOptions)}
      />
    </FormField>
  );
}

export function NumberField({
  name,
  label,
  step,
  placeholder,
  hint,
}: {
  name: string;
  label: ReactNode;
  step: number;
  placeholder?: string;
  hint?: string;
}) {
  const { register, error, id } = useField(name);
  return (
    <FormField id={id} label={label} hint={hint} error={error}>
      <Input
        id={id}
        type="number"
        inputMode={Number.isInteger(step) ? "numeric" : "decimal"}
        step={step}
        placeholder={placeholder}
        aria-invalid={!!error}
        aria-describedby={describedBy(id, { hint, error })}
        {...register(name, { setValueAs: toNumber } as RegisterOptions)}
      />
    </FormField>
  );
}

export function SwitchField({
  name,
  label,
  hint,
  disabled,
}: {
  name: string;
  label: string;
  hint?: string;
  disabled?: boolean;
}) {
  const { register, error, id } = useField(name);
  return (
    <div className="flex items-start justify-between gap-4">
      <div>
        <label htmlFor={id} className="text-sm font-medium text-zinc-700 dark:text-zinc-300">
          {label}
        </label>
        {(error || hint) && (
          <p
            id={error ? `${id}-error` : `${id}-hint`}
            className={
              error
                ? "text-xs text-red-700 dark:text-red-400"
                : "text-xs text-zinc-500 dark:text-zinc-400"
            }
          >
            {error ?? hint}
          </p>
        )}
      </div>
      <Switch
        id={id}
        aria-invalid={!!error}
        aria-describedby={describedBy(id, { hint, error })}
        disabled={disabled}
        {...register(name)}
      />
    </div>
  );
}
