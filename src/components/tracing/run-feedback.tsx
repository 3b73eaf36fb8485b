"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import clsx from "clsx";
import { ThumbsDown, ThumbsUp } from "lucide-react";
import { useId, useRef, useState, type FormEvent } from "react";
import { useCanEdit } from "@/components/deployment-detail/use-deployment";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { Textarea } from "@/components/ui/textarea";
import { DEFAULT_FEEDBACK_KEY } from "@/schemas/tracing-dashboard";
import { apiFailure } from "@/trpc/errors";
import { useTRPC } from "@/trpc/react";

// A run's feedback: what was given (any role reads it) and, for editors and admins, a form to
// give more — thumbs (score 1 or 0) or any score, a comment, under a key (default user_score).

const THUMBS = [
  { score: 1, label: "Thumbs up", Icon: ThumbsUp },
  { score: 0, label: "Thumbs down", Icon: ThumbsDown },
] as const;

export function RunFeedback({ runId }: { runId: string }) {
  const trpc = useTRPC();
  const feedback = useQuery(trpc.tracing.feedback.queryOptions({ id: runId }));
  const canEdit = useCanEdit();
  return (
    <div className="space-y-3">
      {feedback.isPending ? (
        <Skeleton className="h-8 w-full" />
      ) : feedback.isError ? (
        <Alert>Could not load the feedback: {feedback.error.message}</Alert>
      ) : feedback.data.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">No feedback on this run.</p>
      ) : (
        <ul
          aria-label="Feedback given"
          className="divide-y divide-zinc-200 rounded-md border border-zinc-200 text-sm dark:divide-zinc-800 dark:border-zinc-800"
        >
          {feedback.data.map((f) => (
            <li key={f.id} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 px-3 py-2">
              <span className="font-medium break-all">{f.key}</span>
              {f.score !== null && <span className="tabular-nums">score {f.score}</span>}
              {f.comment && (
                <span className="break-words text-zinc-600 dark:text-zinc-400">{f.comment}</span>
              )}
            </li>
          ))}
        </ul>
      )}
      {canEdit === true && <FeedbackForm key={runId} runId={runId} />}
      {canEdit === false && (
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          Viewers read feedback; an editor or admin can give it.
        </p>
      )}
    </div>
  );
}

interface Errors {
  score?: string;
  key?: string;
}

function FeedbackForm({ runId }: { runId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const id = useId();
  const [score, setScore] = useState("");
  const [comment, setComment] = useState("");
  const [key, setKey] = useState(DEFAULT_FEEDBACK_KEY);
  const [errors, setErrors] = useState<Errors>({});
  const [saved, setSaved] = useState(false);
  const scoreInput = useRef<HTMLInputElement>(null);
  const keyInput = useRef<HTMLInputElement>(null);
  const create = useMutation(
    trpc.tracing.createFeedback.mutationOptions({
      onSuccess: async () => {
        setScore("");
        setComment("");
        setSaved(true);
        await queryClient.invalidateQueries({
          queryKey: trpc.tracing.feedback.queryKey({ id: runId }),
        });
      },
    }),
  );
  const failure = create.isError ? apiFailure(create.error) : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const number = score.trim() === "" ? null : Number(score);
    const next: Errors = {};
    if (number !== null && !Number.isFinite(number)) next.score = "Score must be a number";
    else if (number === null && comment.trim() === "")
      next.score = "Give a score (or a thumb) or a comment";
    if (key.trim() === "") next.key = "Key is required";
    else if (key.trim().length > 200) next.key = "Key is at most 200 characters";
    setErrors(next);
    if (next.score) return scoreInput.current?.focus();
    if (next.key) return keyInput.current?.focus();
    create.mutate({ runId, key: key.trim(), score: number, comment: comment.trim() || null });
  };

  return (
    <form
      noValidate
      onSubmit={submit}
      aria-labelledby={`${id}-title`}
      className="space-y-3 rounded-md border border-zinc-200 p-3 dark:border-zinc-800"
    >
      <h5 id={`${id}-title`} className="text-sm font-medium">
        Give feedback
      </h5>
      {failure && <Alert>Could not record the feedback: {failure.message}</Alert>}
      <div className="flex flex-wrap items-end gap-3">
        <div role="group" aria-label="Rating" className="flex gap-2">
          {THUMBS.map(({ score: value, label, Icon }) => {
            const pressed = score.trim() !== "" && Number(score) === value;
            return (
              <Button
                key={label}
                variant="secondary"
                size="sm"
                aria-label={label}
                aria-pressed={pressed}
                onClick={() => {
                  setScore(pressed ? "" : String(value));
                  setErrors((e) => ({ ...e, score: undefined }));
                }}
                className={clsx(
                  pressed &&
                    "border-blue-600 bg-blue-50 text-blue-800 dark:border-blue-400 dark:bg-blue-500/10 dark:text-blue-200",
                )}
              >
                <Icon aria-hidden className="size-4" />
              </Button>
            );
          })}
        </div>
        <FormField
          id={`${id}-score`}
          label="Score"
          className="w-28 space-y-1.5"
          error={errors.score}
        >
          {(aria) => (
            <Input
              {...aria}
              ref={scoreInput}
              type="number"
              step="any"
              inputMode="decimal"
              value={score}
              onChange={(e) => setScore(e.target.value)}
            />
          )}
        </FormField>
      </div>
      <FormField id={`${id}-comment`} label="Comment (optional)">
        {(aria) => (
          <Textarea
            {...aria}
            rows={2}
            maxLength={64 * 1024}
            className="font-sans"
            value={comment}
            onChange={(e) => setComment(e.target.value)}
          />
        )}
      </FormField>
      <FormField
        id={`${id}-key`}
        label="Key"
        hint="What the feedback is about, e.g. correctness. Thumbs record 1 or 0."
        error={errors.key}
      >
        {(aria) => (
          <Input
            {...aria}
            ref={keyInput}
            autoComplete="off"
            maxLength={200}
            value={key}
            onChange={(e) => setKey(e.target.value)}
          />
        )}
      </FormField>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" size="sm" disabled={create.isPending}>
          {create.isPending ? "Saving…" : "Add feedback"}
        </Button>
        <p role="status" className="text-xs text-zinc-600 dark:text-zinc-400">
          {saved ? "Feedback recorded." : ""}
        </p>
      </div>
    </form>
  );
}
