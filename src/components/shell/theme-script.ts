import { THEME_KEY } from "./theme";

// The colour theme without a library: "light", "dark" or "system" in localStorage (THEME_KEY),
// applied to <html> as a class and color-scheme. An inline script in the root layout runs this
// before the first paint and keeps it applied: when the system's scheme changes and when the
// stored choice changes (another tab, or ThemeToggle, which signals with a storage event).

/** Serialized into the page, so it uses nothing from outside its own body but its argument. */
function watchTheme(key: string) {
  const media = matchMedia("(prefers-color-scheme: dark)");
  const root = document.documentElement;
  let first = true;
  const apply = () => {
    let stored: string | null = null;
    try {
      stored = localStorage.getItem(key);
    } catch {
      // No storage (a private mode): the system's scheme decides.
    }
    const dark = stored === "dark" || (stored !== "light" && media.matches);
    // No transitions while the colours swap (the first paint has none to stop).
    const pause = first ? null : document.createElement("style");
    if (pause) {
      pause.textContent = "*,*::before,*::after{transition:none!important}";
      document.head.appendChild(pause);
    }
    root.classList.remove("light", "dark");
    root.classList.add(dark ? "dark" : "light");
    root.style.colorScheme = dark ? "dark" : "light";
    if (pause) {
      getComputedStyle(document.body);
      setTimeout(() => pause.remove(), 1);
    }
    first = false;
  };
  apply();
  media.addEventListener("change", apply);
  addEventListener("storage", (e) => {
    if (e.key === null || e.key === key) apply();
  });
}

export const themeScript = `(${watchTheme.toString()})(${JSON.stringify(THEME_KEY)})`;
