import { z } from "zod";
import { timestamp, uuid } from "./common";
import { logLevels } from "./deployment-values";

// Logs as the reference deploy client reads them: POST a query, get `{logs, next_offset}`.

export { logLevels };
export const logLevel = z.enum(logLevels).meta({ id: "LogLevel" });

export const logQueryBody = z
  .object({
    limit: z.number().int().min(1).max(1000).default(100),
    order: z.enum(["asc", "desc"]).default("desc"),
    offset: z
      .string()
      .max(100)
      .nullish()
      .meta({ description: "Opaque: a previous answer's next_offset" }),
    level: z
      .string()
      .transform((v) => v.toUpperCase())
      .pipe(logLevel)
      .nullish()
      .meta({ description: "Only lines of this level (case-insensitive)" }),
    query: z.string().max(500).nullish().meta({ description: "Case-insensitive substring" }),
    start_time: z.iso.datetime({ offset: true }).nullish(),
    end_time: z.iso.datetime({ offset: true }).nullish(),
  })
  .meta({ id: "LogQuery" });
export type LogQuery = z.output<typeof logQueryBody>;

export const logEntry = z
  .object({
    id: z.string().meta({ description: "Stable across calls (de-duplicate by it)" }),
    timestamp,
    level: logLevel,
    message: z.string(),
  })
  .meta({ id: "LogEntry" });
export type LogEntry = z.infer<typeof logEntry>;

export const logEntries = z
  .object({
    logs: z.array(logEntry),
    next_offset: z.string().nullable().meta({
      description:
        "Pass back as offset to read on; null once everything was read and nothing more will be written",
    }),
  })
  .meta({ id: "LogEntries" });
export type LogEntries = z.infer<typeof logEntries>;

export const projectParams = z.object({ project_id: uuid });
export const projectRevisionParams = z.object({ project_id: uuid, revision_id: uuid });
