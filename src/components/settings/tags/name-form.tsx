"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { apiFailure } from "@/trpc/errors";

/**
 * One text field and a button: adds a tag key or value, or renames one. The server's message
 * (a duplicate, a bad character) shows under the field.
 */
export function NameForm({
  id,
  label,
  submitLabel,
  initial = "",
  pending,
  onSubmit,
  autoFocus,
}: {
  id: string;
  label: string;
  submitLabel: string;
  initial?: string;
  pending: boolean;
  onSubmit: (name: string) => Promise<unknown>;
  autoFocus?: boolean;
}) {
  const [name, setName] = useState(initial);
  const [error, setError] = useState<string>();
  return (
    <form
      noValidate
      className="flex flex-wrap items-start gap-2"
      onSubmit={async (e) => {
        e.preventDefault();
        if (!name.trim()) return setError(`${label}: enter a name.`);
        try {
          await onSubmit(name.trim());
          setName("");
          setError(undefined);
        } catch (failure) {
          setError(apiFailure(failure).issues[0]?.msg ?? apiFailure(failure).message);
        }
      }}
    >
      <FormField id={id} label={label} className="min-w-0 flex-1 space-y-1.5" error={error}>
        {(aria) => (
          <Input
            {...aria}
            data-autofocus={autoFocus || undefined}
            autoComplete="off"
            maxLength={63}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        )}
      </FormField>
      <Button type="submit" variant="secondary" className="mt-6" disabled={pending}>
        {submitLabel}
      </Button>
    </form>
  );
}
