import { initTRPC, TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { ONE_TIME_PASSWORD, requireOrgRole, type Actor } from "@/server/auth/actor";
import type { RequestContext } from "@/server/context";
import { issueWords } from "@/schemas/field-words";
import { AppError, errorTable, isDatabaseUnavailable } from "@/server/errors";
import { describeError, log } from "@/server/log";
import { refuseBadText } from "@/server/input-text";
import { toValidationIssues } from "@/server/validation";

const t = initTRPC.context<RequestContext>().create({
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    const issues =
      cause instanceof AppError
        ? cause.issues
        : cause instanceof ZodError
          ? // The dashboard's door speaks its words: fields by label (REST keeps the contract's).
            toValidationIssues("body", cause).map((issue, i) => ({
              ...issue,
              msg: issueWords(cause.issues[i]!),
            }))
          : undefined;
    return { ...shape, data: { ...shape.data, stack: undefined, issues: issues ?? null } };
  },
});

/** tRPC v11's next() returns a result rather than throwing: map AppError from result.error.cause. */
const mapErrors = t.middleware(async ({ next, path, ctx }) => {
  const result = await next();
  if (result.ok) return result;
  const cause = result.error.cause;
  if (cause instanceof AppError) {
    throw new TRPCError({ code: errorTable[cause.code].trpc, message: cause.message, cause });
  }
  if (result.error.code === "INTERNAL_SERVER_ERROR") {
    const unavailable = isDatabaseUnavailable(cause);
    log.error(unavailable ? "database unavailable" : "unhandled error", {
      request_id: ctx.requestId,
      procedure: path,
      ...describeError(cause ?? result.error),
    });
    throw new TRPCError({
      code: unavailable ? "SERVICE_UNAVAILABLE" : "INTERNAL_SERVER_ERROR",
      message: unavailable
        ? "Service unavailable: the database cannot be reached"
        : "Internal server error",
    });
  }
  return result;
});

export const createRouter = t.router;
export const createCallerFactory = t.createCallerFactory;

/** Input text with U+0000, lone surrogates or deep nesting is refused here as at the REST door. */
const refuseBadInput = t.middleware(async ({ getRawInput, next }) => {
  refuseBadText("body", await getRawInput());
  return next();
});

export const publicProcedure = t.procedure.use(mapErrors).use(refuseBadInput);

/**
 * Signed in, even on a one-time password: only what the forced password change needs (who am I,
 * change my password).
 */
export const signedInProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.actor) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in to continue" });
  return next({ ctx: { ...ctx, actor: ctx.actor as Actor } });
});

/** Signed in, acting in a workspace: the services check the role each operation needs. */
export const workspaceProcedure = signedInProcedure.use(({ ctx, next }) => {
  if (ctx.actor.mustChangePassword)
    throw new TRPCError({ code: "FORBIDDEN", message: ONE_TIME_PASSWORD });
  return next();
});

/** Organization resources (providers, integrations) are changed by organization admins only. */
export const orgAdminProcedure = workspaceProcedure.use(({ ctx, next }) => {
  requireOrgRole(ctx.actor, "admin");
  return next();
});
