// ESLint and its plugins are installed apart, in tools/lint (see its package.json).
export { default } from "./tools/lint/config.mjs";
