import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { auditActions } from "../../src/components/settings/audit/audit-actions";

// The audit log's action filter offers exactly what the services record: a new recordAudit
// action that the menu lacks could never be filtered for.

const serverDir = path.resolve(import.meta.dirname, "../../src/server");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

describe("the audit filter's actions", () => {
  it("are the actions the server records, each once", () => {
    const recorded = new Set<string>();
    for (const file of sources(serverDir))
      for (const match of readFileSync(file, "utf8").matchAll(/action: "([a-z_]+\.[a-z_]+)"/g))
        recorded.add(match[1]!);
    expect(recorded.size).toBeGreaterThan(20);
    expect([...auditActions].sort()).toEqual([...recorded].sort());
    expect(new Set(auditActions).size).toBe(auditActions.length);
  });
});
