import { z } from "zod";
import { timestamp, uuid } from "./common";

// The signed-in user's browser sessions (Settings > Sessions): listed, revoked one by one.

export const browserSession = z
  .object({
    id: uuid,
    user_agent: z.string().nullable(),
    created_at: timestamp,
    last_seen_at: timestamp,
    current: z.boolean().meta({ description: "The session making this request" }),
  })
  .meta({ id: "BrowserSession" });
export type BrowserSession = z.infer<typeof browserSession>;

export const sessionIdInput = z.object({ id: uuid });
