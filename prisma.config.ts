import { defineConfig } from "prisma/config";

// The CLI is used here only for `prisma generate`; migrations are applied by `npm run migrate`.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost:5432/hangar" },
});
