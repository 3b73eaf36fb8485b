import { describe, expect, it } from "vitest";
import { nanosToIso } from "../../src/server/services/tracing/time";

// OpenTelemetry's unix-nanosecond times become ISO text with microseconds, read as text (the
// span path runs it several times per span). Held to the BigInt arithmetic it replaced.

const LATEST_NANOS = BigInt(Date.UTC(9999, 11, 31)) * 1_000_000n;
function reference(nanos: string): string | null {
  const n = BigInt(nanos);
  if (n < 0n || n > LATEST_NANOS) return null;
  const micros = String((n / 1000n) % 1_000_000n).padStart(6, "0");
  return `${new Date(Number(n / 1_000_000n)).toISOString().slice(0, 19)}.${micros}Z`;
}

describe("nanosToIso", () => {
  it("agrees with the BigInt formula everywhere from 0 to past 9999", () => {
    const cases = [
      "0",
      "1",
      "999",
      "1000",
      "999999",
      "1000000",
      "123456789",
      "1764377284123456789",
      "1764377284000000000",
      "1764377284999999999",
      String(LATEST_NANOS),
      String(LATEST_NANOS + 1n),
      String(LATEST_NANOS + 1_000_000n),
      "18446744073709551615",
    ];
    for (let i = 0; i < 200; i++)
      cases.push(
        String(BigInt(Math.floor(Math.random() * 2 ** 52)) * 1_000_000n + BigInt(i * 7919)),
      );
    for (const nanos of cases) expect(nanosToIso(nanos), nanos).toBe(reference(nanos));
  });

  it("is null for text that is not unix nanoseconds", () => {
    for (const text of ["", "-1", "1.5", "1e9", " 1", "x", "1".repeat(31)])
      expect(nanosToIso(text), text).toBeNull();
  });
});
