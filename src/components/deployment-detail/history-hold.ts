// Holds the page against the browser's Back/Forward in the App Router, which has no navigation
// guard: a copy of the current history entry goes on top, so a traversal lands below it, where a
// capturing popstate listener (ahead of the router's own) puts the page back and asks instead.

const COPY = "__hangarHeld";

export interface HistoryHold {
  /** Stops holding before a confirmed leave; answers whether the page's copy is on top. */
  release(): boolean;
  /** Stops holding (changes saved or discarded): takes the copy off so Back is not wasted. */
  end(): void;
}

type HistoryState = Record<string, unknown> | null;

const onCopy = () => (window.history.state as HistoryState)?.[COPY] === true;

// A step off the copy is under way (history.back() is asynchronous); a hold that starts
// meanwhile puts its copy on once the step is done.
let stepping = false;
let afterStep: (() => void) | null = null;

/**
 * `onLeave(back)` hears of every attempt to leave through history; `back` is how many entries
 * `history.go(-back)` must step to get where the user was going, from the page as it is then.
 */
export function holdHistory(onLeave: (back: number) => void): HistoryHold {
  const url = window.location.href;
  // The router's own state (its tree and the __NA mark) comes along: it accepts the entry as its own.
  const copyState = { ...(window.history.state as HistoryState), [COPY]: true };
  const pushCopy = () => window.history.pushState(copyState, "", url);
  const ensureCopy = () => onCopy() || pushCopy();
  if (stepping) afterStep = ensureCopy;
  else ensureCopy();

  let held = true;
  const onPopState = (e: PopStateEvent) => {
    if (!held) return;
    e.stopImmediatePropagation();
    // Back from the copy lands on the page's own entry: leaving means one more step.
    const back = window.location.href === url ? 2 : 1;
    pushCopy();
    onLeave(back);
  };
  window.addEventListener("popstate", onPopState, true);

  const stop = () => {
    held = false;
    window.removeEventListener("popstate", onPopState, true);
  };
  return {
    release() {
      stop();
      return onCopy();
    },
    end() {
      const wasHeld = held;
      stop();
      if (!wasHeld || !onCopy()) return;
      // Stepping off the copy returns to this same page: the router needs to hear nothing.
      const swallow = (e: PopStateEvent) => {
        if (window.location.href === url) e.stopImmediatePropagation();
        stepping = false;
        afterStep?.();
        afterStep = null;
      };
      stepping = true;
      window.addEventListener("popstate", swallow, { capture: true, once: true });
      window.history.back();
    },
  };
}
