import { inject } from "vitest";

// Tests that call services directly need the same configuration as the server under test.
Object.assign(process.env, inject("testEnv"));
