"use client";

import { useEffect, useState, type ReactNode } from "react";
import { storedTheme, THEME_KEY, type Theme } from "./theme";

const themes = [
  { value: "light", label: "Light" },
  { value: "dark", label: "Dark" },
  { value: "system", label: "System" },
] as const;

/** The three theme buttons; their icons (`faces`) come drawn from the server. */
export function ThemeToggle({ faces }: { faces: Record<Theme, ReactNode> }) {
  // The chosen theme is only known in the browser: render neutral until mounted.
  const [theme, setChosen] = useState<Theme | null>(null);
  useEffect(() => setChosen(storedTheme()), []);
  const setTheme = (value: Theme) => {
    try {
      localStorage.setItem(THEME_KEY, value);
    } catch {
      // Private mode without storage: the choice lasts for this page only.
    }
    // The theme script (root layout) applies it, as for a change made in another tab.
    dispatchEvent(new StorageEvent("storage", { key: THEME_KEY }));
    setChosen(value);
  };
  return (
    <div
      role="group"
      aria-label="Theme"
      className="flex rounded-md border border-zinc-200 p-0.5 dark:border-zinc-800"
    >
      {themes.map(({ value, label }) => {
        const checked = theme === value;
        return (
          <button
            key={value}
            type="button"
            aria-pressed={checked}
            aria-label={label}
            title={label}
            onClick={() => setTheme(value)}
            className="rounded p-1.5 text-zinc-500 hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600 aria-pressed:bg-zinc-100 aria-pressed:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100 dark:aria-pressed:bg-zinc-800 dark:aria-pressed:text-zinc-100"
          >
            {faces[value]}
          </button>
        );
      })}
    </div>
  );
}
