import js from "@eslint/js";
import boundaries from "eslint-plugin-boundaries";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";
import { fileURLToPath } from "node:url";

// Hangar's lint: typescript-eslint's recommended rules (syntax only, no type information, so
// it stays fast) and the layers of STYLE.md as an import-boundaries rule.

const resolver = fileURLToPath(new URL("./resolver.cjs", import.meta.url));

/** Every part of the code base, first match wins; patterns are from the repository's root. */
const elements = [
  // Entry points Next.js loads: pages, route handlers, the request proxy, start-up hooks.
  { type: "app", pattern: ["src/app/**/*", "src/proxy.ts"] },
  // Runs once at server start: job queue schema, bootstrap.
  { type: "startup", pattern: ["src/instrumentation.ts"] },
  // The two doors into the services: tRPC (dashboard) and REST (with its OpenAPI document).
  {
    type: "door",
    pattern: ["src/server/api/**/*", "src/server/rest/**/*", "src/server/openapi/**/*"],
  },
  { type: "services", pattern: ["src/server/services/**/*"] },
  { type: "jobs", pattern: ["src/server/jobs/**/*"] },
  { type: "db", pattern: ["src/server/db.ts", "src/server/db/**/*", "src/generated/**/*"] },
  // Server infrastructure every server layer may use: auth, errors, logging, outbound HTTP...
  { type: "server-lib", pattern: ["src/server/**/*"] },
  // Server components' tRPC caller (server-only glue between pages and the tRPC door).
  {
    type: "trpc-server",
    pattern: ["src/trpc/server.tsx", "src/trpc/server-calls.ts", "src/trpc/session.ts"],
  },
  // The dashboard's client code: it runs in the browser.
  { type: "client", pattern: ["src/components/**/*", "src/hooks/**/*", "src/trpc/**/*"] },
  { type: "schemas", pattern: ["src/schemas/**/*"] },
  { type: "env", pattern: ["src/env.ts"] },
  { type: "lib", pattern: ["src/lib/**/*"] },
  { type: "testing", pattern: ["testing/**/*"] },
  { type: "tooling", pattern: ["scripts/**/*", "bench/**/*", "tests/**/*", "e2e/**/*", "*.ts"] },
  { type: "package", pattern: ["package.json"] },
].map((element) => ({ ...element, mode: "full" }));

const to = (...types) => ({ to: { element: { types: { anyOf: types } } } });
const COMMON = ["schemas", "env", "lib", "package"];

/** Who may import whom: app -> doors -> services -> db; jobs -> services; nothing imports app. */
const policies = [
  {
    from: { element: { type: "app" } },
    allow: to("app", "door", "services", "server-lib", "trpc-server", "client", ...COMMON),
  },
  { from: { element: { type: "startup" } }, allow: to("services", "server-lib", "db", ...COMMON) },
  {
    from: { element: { type: "door" } },
    allow: to("door", "services", "server-lib", "db", ...COMMON),
  },
  { from: { element: { type: "services" } }, allow: to("services", "server-lib", "db", ...COMMON) },
  {
    from: { element: { type: "jobs" } },
    allow: to("jobs", "services", "server-lib", "db", ...COMMON),
  },
  { from: { element: { type: "server-lib" } }, allow: to("server-lib", "db", ...COMMON) },
  { from: { element: { type: "db" } }, allow: to("db", ...COMMON) },
  {
    from: { element: { type: "trpc-server" } },
    allow: to("trpc-server", "door", "server-lib", "client", ...COMMON),
  },
  // Browser code reaches the server only through tRPC and server actions; types are erased.
  { from: { element: { type: "client" } }, allow: to("client", ...COMMON) },
  {
    from: { element: { type: "client" } },
    allow: {
      to: { element: { types: { anyOf: ["door", "services", "server-lib", "db"] } } },
      dependency: { kind: "type" },
    },
  },
  {
    from: { element: { type: "client" } },
    allow: { to: { file: { path: "src/server/auth/actions.ts" } } },
  },
  { from: { element: { type: "schemas" } }, allow: to("schemas") },
  { from: { element: { type: "env" } }, allow: to("lib") },
  { from: { element: { type: "lib" } }, allow: to("lib") },
  {
    from: { element: { type: "testing" } },
    allow: to("testing", "jobs", "services", "db", "server-lib", ...COMMON),
  },
  // Tests, scripts and benchmarks drive everything but the app's entry points.
  {
    from: { element: { type: "tooling" } },
    allow: to(
      "tooling",
      "testing",
      "door",
      "services",
      "jobs",
      "server-lib",
      "db",
      "trpc-server",
      "client",
      ...COMMON,
    ),
  },
];

export default tseslint.config(
  {
    ignores: [
      "node_modules/**",
      ".next/**",
      "src/generated/**",
      "tools/**",
      "e2e-screenshots/**",
      "test-results/**",
      "playwright-report/**",
      "**/*.mjs",
      "**/*.cjs",
      "next-env.d.ts",
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ["**/*.ts", "**/*.tsx"],
    plugins: { boundaries },
    settings: {
      // Descriptors name single files too (src/env.ts), which needs the "full" mode.
      "boundaries/legacy-warnings": false,
      "boundaries/elements": elements,
      "boundaries/include": [
        "src/**/*",
        "testing/**/*",
        "scripts/**/*",
        "bench/**/*",
        "tests/**/*",
        "e2e/**/*",
        "*.ts",
      ],
      "boundaries/dependency-nodes": ["import", "export", "dynamic-import"],
      "import/resolver": { [resolver]: {} },
    },
    rules: {
      "boundaries/dependencies": ["error", { default: "disallow", policies }],
    },
  },
  {
    files: ["src/**/*.tsx", "src/**/*.ts"],
    plugins: { "react-hooks": reactHooks },
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "error" },
  },
  {
    // Request ids come from one helper (src/server/request-id.ts), which validates them.
    files: ["src/**/*.ts", "src/**/*.tsx"],
    ignores: ["src/server/request-id.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector:
            "CallExpression[callee.property.name='get'][arguments.0.value=/^x-request-id$/i]",
          message: "Use requestIdFrom() from @/server/request-id: it validates the incoming id.",
        },
      ],
    },
  },
  {
    // Tests read JSON answers of any shape; Playwright fixtures destructure nothing ({}).
    files: ["tests/**/*.ts", "e2e/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off", "no-empty-pattern": "off" },
  },
  {
    // The real Kubernetes driver stands alone: no code of the recording (dry-run) driver.
    files: ["src/server/jobs/drivers/kubernetes*.ts", "src/server/jobs/drivers/kubernetes/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/recording", "**/drivers/recording"],
              message: "The Kubernetes driver must not depend on the recording (dry-run) driver.",
            },
          ],
        },
      ],
    },
  },
);
