// The tab's query cache as code outside the data layer sees it: the workspace switcher clears it
// without loading TanStack Query into pages that read nothing through it (the deployments list).
let clear: (() => void) | null = null;

/** Called by the data layer when it makes the tab's QueryClient. */
export function registerQueryCache(clearCache: () => void): void {
  clear = clearCache;
}

/** Forgets everything cached (it belongs to the previous workspace); nothing when none was made. */
export function clearQueryCache(): void {
  clear?.();
}
