/** zod's messages in a form's words: an empty required field says so plainly. */
export const formErrors = {
  error: (issue: { code: string; minimum?: unknown; origin?: string; input?: unknown }) =>
    issue.code === "too_small" && issue.origin === "string" && issue.minimum === 1
      ? "Required"
      : undefined,
};
