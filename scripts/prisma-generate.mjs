// Runs `prisma generate` after install. The CLI tries to download its native schema engine
// first, which generate does not need: point it at an existing file so offline installs work.
import { spawnSync } from "node:child_process";

const env = { ...process.env };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= "/bin/false";
env.PRISMA_HIDE_UPDATE_MESSAGE = "1";
const result = spawnSync("npx", ["prisma", "generate"], { stdio: "inherit", env });
process.exit(result.status ?? 1);
