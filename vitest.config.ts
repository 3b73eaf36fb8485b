import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname, "src") } },
  test: {
    // Integration files mostly wait (on servers, workers, builds): several run at once, each
    // against its own tenants; the launcher's files set their own limit (one at a time).
    maxWorkers: 4,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.ts"],
          // Runs beside the integration files (one group needs one worker count).
          sequence: { groupOrder: 0 },
          maxWorkers: 3,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          sequence: { groupOrder: 0 },
          maxWorkers: 3,
          // The files share no module state that matters (each makes its own tenants and
          // servers): a worker keeps its imports from file to file instead of re-importing them.
          isolate: false,
          include: ["tests/integration/**/*.test.ts"],
          globalSetup: ["tests/integration/global-setup.ts"],
          setupFiles: ["tests/integration/setup-env.ts"],
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
      {
        extends: true,
        test: {
          // `npm start` itself, on the embedded default and on an external PostgreSQL: after the
          // other projects, one file at a time (each runs whole Hangar instances). Two at a time
          // gained nothing beside Playwright (both suites' CPU was the limit) and made their
          // timing-sensitive waits tighter.
          name: "launcher",
          include: ["tests/launcher/**/*.test.ts"],
          globalSetup: ["tests/launcher/global-setup.ts"],
          fileParallelism: false,
          sequence: { groupOrder: 1 },
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
