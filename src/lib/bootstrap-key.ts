import { z } from "zod";

/**
 * A key chosen by the operator (HANGAR_BOOTSTRAP_API_KEY). Keys are stored as an unsalted
 * SHA-256 beside their first 12 characters, so a short or repetitive key could be recovered
 * from a database dump: at least 32 characters, 16 of them distinct.
 */
export const BOOTSTRAP_KEY_MIN_LENGTH = 32;
export const BOOTSTRAP_KEY_MIN_DISTINCT = 16;
export const bootstrapApiKey = z
  .string()
  .min(BOOTSTRAP_KEY_MIN_LENGTH, {
    message: `HANGAR_BOOTSTRAP_API_KEY must be at least ${BOOTSTRAP_KEY_MIN_LENGTH} characters (e.g. hgr_ followed by \`openssl rand -hex 24\`)`,
  })
  .max(256)
  .refine((key) => new Set(key).size >= BOOTSTRAP_KEY_MIN_DISTINCT, {
    message: `HANGAR_BOOTSTRAP_API_KEY is too predictable: use at least ${BOOTSTRAP_KEY_MIN_DISTINCT} different characters (a random value)`,
  });
