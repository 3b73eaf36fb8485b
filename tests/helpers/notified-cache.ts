import { vi } from "vitest";
import type { NotifiedCache } from "@/server/auth/notified-cache";
import { testDb } from "./fixtures";

type Cache = Pick<NotifiedCache<unknown>, "find" | "isListening">;

/** A credential cache once it hears its announcements (its first lookup starts listening). */
export async function listening<C extends Cache>(cache: C): Promise<C> {
  await cache.find(testDb(), "0".repeat(64));
  await vi.waitUntil(() => cache.isListening, { timeout: 30_000, interval: 20 });
  return cache;
}
