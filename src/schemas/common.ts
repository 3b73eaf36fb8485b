import { z } from "zod";

// Building blocks shared by every domain's schemas. No server imports here.

export const uuid = z.uuid();

/** How a query parameter given as text is documented: replaces the rendered JSON Schema. */
export function documentedAs(schema: Record<string, unknown>) {
  return ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
    for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
    Object.assign(jsonSchema, schema);
  };
}
export const timestamp = z.iso
  .datetime({ offset: true })
  .meta({ example: "2026-11-22T10:00:00.000Z" });

/** Integer query parameter given as text ("20"), with bounds and a default. */
export function intQuery(opts: { min: number; max?: number; default: number }) {
  let n = z.number().int().min(opts.min);
  if (opts.max !== undefined) n = n.max(opts.max);
  return z
    .string()
    .regex(/^\d+$/, "Input should be a valid integer")
    .transform(Number)
    .pipe(n)
    .optional()
    .transform((v) => v ?? opts.default)
    .meta({
      override: documentedAs({
        type: "integer",
        minimum: opts.min,
        maximum: opts.max,
        default: opts.default,
      }),
    });
}

/** A comma-separated list in one query parameter ("a,b,c"). Blank items are ignored. */
export function csvQuery<T extends z.ZodType<unknown, string>>(
  item: T,
  opts: { max?: number; description: string },
) {
  const list = opts.max === undefined ? z.array(item) : z.array(item).max(opts.max);
  return z
    .string()
    .transform((s) =>
      s
        .split(",")
        .map((v) => v.trim())
        .filter(Boolean),
    )
    .pipe(list)
    .optional()
    .meta({ override: documentedAs({ type: "string", description: opts.description }) });
}

/** A boolean query flag: true/false (also 1/0). */
export const boolQuery = z
  .enum(["true", "false", "1", "0"])
  .transform((v) => v === "true" || v === "1")
  .optional()
  .meta({ override: documentedAs({ type: "boolean" }) });

/** The contract's list envelope: a page and the offset of the next one. */
export function page<T extends z.ZodType>(item: T) {
  return z.object({
    resources: z.array(item),
    offset: z
      .number()
      .int()
      .min(0)
      .meta({ description: "Pass back as `offset` to fetch the next page" }),
  });
}

export const paginationQuery = {
  limit: intQuery({ min: 1, max: 100, default: 20 }),
  offset: intQuery({ min: 0, default: 0 }),
};

/** FastAPI-style error bodies. */
export const validationErrorBody = z
  .object({
    detail: z.array(
      z.object({
        loc: z.array(z.union([z.string(), z.number()])),
        msg: z.string(),
        type: z.string(),
      }),
    ),
  })
  .meta({ id: "ValidationError" });

export const errorBody = z
  .object({ detail: z.string(), code: z.string().optional() })
  .meta({ id: "Error" });

export type Page<T> = { resources: T[]; offset: number };
