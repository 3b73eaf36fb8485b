import { z } from "zod";
import { intQuery, page, timestamp } from "./common";

// A revision's build and deploy log (the revision engine's output).

export const revisionLogStream = z.enum(["build", "deploy"]).meta({ id: "RevisionLogStream" });

export const revisionLogLine = z
  .object({
    id: z
      .number()
      .int()
      .meta({ description: "Increasing; pass as `after` (or Last-Event-ID) to read on" }),
    stream: revisionLogStream,
    line: z.string(),
    created_at: timestamp,
  })
  .meta({ id: "RevisionLogLine" });
export type RevisionLogLine = z.infer<typeof revisionLogLine>;

export const revisionLogsQuery = z.object({
  limit: intQuery({ min: 1, max: 1000, default: 100 }),
  offset: intQuery({ min: 0, default: 0 }),
  after: intQuery({ min: 0, default: 0 }).meta({
    description:
      "Only lines with an id greater than this (a cursor: the last id read); combines with offset",
  }),
});
export type RevisionLogsQuery = z.output<typeof revisionLogsQuery>;

export const revisionLogPage = page(revisionLogLine).meta({ id: "RevisionLogPage" });
