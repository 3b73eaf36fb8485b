"use client";

import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False in the server's HTML and until React has hydrated the page, then true. Editors stay
 * disabled until then: what is typed into server-rendered inputs before hydration would be
 * replaced by the form's initial values.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
