"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Textarea } from "@/components/ui/textarea";
import { parseDotenv, type DotenvEntry } from "@/lib/dotenv";

/** Bulk entry: `.env` lines become secrets; what cannot be read is listed, not dropped silently. */
export function PasteEnvDialog({
  open,
  onClose,
  onAdd,
}: {
  open: boolean;
  onClose: () => void;
  onAdd: (entries: DotenvEntry[]) => void;
}) {
  const [text, setText] = useState("");
  const { entries, errors } = parseDotenv(text);
  const close = () => {
    setText("");
    onClose();
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      title="Paste .env"
      description="KEY=value lines; quotes, # comments and an export prefix are understood. Existing names get the new value."
    >
      <div className="space-y-3">
        <label htmlFor="dotenv-text" className="sr-only">
          .env lines
        </label>
        <Textarea
          id="dotenv-text"
          data-autofocus
          rows={8}
          spellCheck={false}
          autoComplete="off"
          placeholder={'# .env\nexport API_KEY=sk-...\nDATABASE_URL="postgres://..."'}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <div aria-live="polite" className="space-y-1 text-sm">
          {text.trim() !== "" && (
            <p className="text-zinc-600 dark:text-zinc-400">
              {entries.length === 1 ? "1 secret" : `${entries.length} secrets`} found
              {entries.length > 0 && `: ${entries.map((e) => e.name).join(", ")}`}
            </p>
          )}
          {errors.length > 0 && (
            <ul className="text-red-700 dark:text-red-400">
              {errors.map((e) => (
                <li key={e.line}>
                  Line {e.line}: {e.message}
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button
            disabled={entries.length === 0}
            onClick={() => {
              onAdd(entries);
              setText("");
            }}
          >
            Add {entries.length === 1 ? "secret" : "secrets"}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
