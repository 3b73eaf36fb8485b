import { toNestErrors, validateFieldsNatively } from "@hookform/resolvers";
import type { FieldError, FieldValues, Resolver } from "react-hook-form";
import type { z } from "zod";
import { issueWords } from "@/schemas/field-words";

const DEFAULT = "\u0000default";

/**
 * A react-hook-form resolver for the API's own schemas that reports each issue in words: the
 * field by its label and bounds with units ("Maximum replicas must be at least the minimum (5)"),
 * where zodResolver would show zod's or the API's texts. `raw` keeps the form's values as typed.
 */
export function formResolver<T extends FieldValues>(
  schema: z.ZodType,
  { raw = false }: { raw?: boolean } = {},
): Resolver<T> {
  return async (values, _context, options) => {
    // Issues left without a message by the schema get this mark: zod's default texts.
    const result = await schema.safeParseAsync(values, { error: () => DEFAULT });
    if (result.success) {
      if (options.shouldUseNativeValidation) validateFieldsNatively({}, options);
      return { values: (raw ? { ...values } : result.data) as T, errors: {} };
    }
    const errors: Record<string, FieldError> = {};
    for (const issue of result.error.issues) {
      errors[issue.path.map(String).join(".")] ??= {
        type: issue.code,
        message: issueWords(issue, issue.message === DEFAULT),
      };
    }
    return { values: {}, errors: toNestErrors(errors, options) };
  };
}
