// The colour theme's choices and where the browser keeps the chosen one (theme-script applies it).

export type Theme = "light" | "dark" | "system";
export const THEME_KEY = "theme";

export function storedTheme(): Theme {
  try {
    const stored = localStorage.getItem(THEME_KEY);
    return stored === "light" || stored === "dark" ? stored : "system";
  } catch {
    return "system";
  }
}
