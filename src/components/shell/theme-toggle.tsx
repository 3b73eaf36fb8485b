"use client";

import clsx from "clsx";
import { MonitorIcon, MoonIcon, SunIcon } from "@/components/ui/icons";
import { useTheme } from "next-themes";
import { useEffect, useState } from "react";

const themes = [
  { value: "light", label: "Light", icon: SunIcon },
  { value: "dark", label: "Dark", icon: MoonIcon },
  { value: "system", label: "System", icon: MonitorIcon },
] as const;

export function ThemeToggle() {
  const { theme, setTheme } = useTheme();
  // The chosen theme is only known in the browser: render neutral until mounted.
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return (
    <div
      role="group"
      aria-label="Theme"
      className="flex rounded-md border border-zinc-200 p-0.5 dark:border-zinc-800"
    >
      {themes.map(({ value, label, icon: Icon }) => {
        const checked = mounted && theme === value;
        return (
          <button
            key={value}
            type="button"
            aria-pressed={checked}
            aria-label={label}
            title={label}
            onClick={() => setTheme(value)}
            className={clsx(
              "rounded p-1.5 focus-visible:outline-2 focus-visible:outline-blue-600",
              checked
                ? "bg-zinc-100 text-zinc-900 dark:bg-zinc-800 dark:text-zinc-100"
                : "text-zinc-500 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100",
            )}
          >
            <Icon aria-hidden className="size-3.5" />
          </button>
        );
      })}
    </div>
  );
}
