import { describe, expect, it } from "vitest";
import { parseAllowlist } from "../../../src/server/outbound/allowlist";
import { checkedAddress } from "../../../src/server/outbound/resolve";
import { OutboundError } from "../../../src/server/outbound/errors";

describe("HANGAR_EGRESS_ALLOWLIST", () => {
  const list = parseAllowlist(
    "localhost:4010, 10.1.2.3:443, [::1]:8080, 192.168.50.0/24, idp.internal",
  );

  it("matches a name on its exact port, or any port when none is given", () => {
    expect(list.allows("localhost", 4010, "127.0.0.1")).toBe(true);
    expect(list.allows("LOCALHOST", 4010, "::1")).toBe(true);
    expect(list.allows("localhost", 4011, "127.0.0.1")).toBe(false);
    expect(list.allows("idp.internal", 9999, "10.9.9.9")).toBe(true);
  });

  it("matches an address entry by the address connected to, on its port", () => {
    expect(list.allows("10.1.2.3", 443, "10.1.2.3")).toBe(true);
    expect(list.allows("name.example", 443, "10.1.2.3")).toBe(true);
    expect(list.allows("10.1.2.3", 80, "10.1.2.3")).toBe(false);
    expect(list.allows("[::1]", 8080, "::1")).toBe(true);
    expect(list.allows("[::1]", 8081, "::1")).toBe(false);
  });

  it("matches a CIDR entry on any port, same family only", () => {
    expect(list.allows("x", 1, "192.168.50.7")).toBe(true);
    expect(list.allows("x", 1, "192.168.51.7")).toBe(false);
    expect(list.allows("x", 1, "::ffff:192.168.50.7")).toBe(true);
    expect(list.allows("x", 1, "fd00::1")).toBe(false);
  });

  it.each(["host:port", "a:1:2", "10.0.0.0/99", "[nope]:1", "h:70000", "bad host"])(
    "refuses the malformed entry %s at start",
    (entry) => expect(() => parseAllowlist(entry)).toThrow(/HANGAR_EGRESS_ALLOWLIST/),
  );

  it("an empty or unset list allows nothing", () => {
    expect(parseAllowlist(undefined).allows("localhost", 80, "127.0.0.1")).toBe(false);
    expect(parseAllowlist(" , ").entries).toEqual([]);
  });
});

describe("checkedAddress (resolution without traffic)", () => {
  const none = parseAllowlist("");
  const fake =
    (...addresses: string[]) =>
    async () =>
      addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));

  it("returns the public address a name resolves to, IPv4 first", async () => {
    await expect(
      checkedAddress("a.example", 443, none, fake("2606:4700::1", "93.184.216.34")),
    ).resolves.toBe("93.184.216.34");
  });

  it("skips refused addresses when a public one exists", async () => {
    await expect(checkedAddress("a.example", 443, none, fake("10.0.0.1", "8.8.8.8"))).resolves.toBe(
      "8.8.8.8",
    );
  });

  it("refuses a name that resolves only to refused ranges, naming the range and the policy", async () => {
    const error = await checkedAddress("evil.example", 80, none, fake("169.254.169.254")).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(OutboundError);
    expect(error.kind).toBe("refused");
    expect(error.message).toBe(
      "evil.example resolves to a cloud metadata address, which Hangar's outbound address policy refuses (allow it with HANGAR_EGRESS_ALLOWLIST)",
    );
  });

  it("refuses literal addresses without resolving them", async () => {
    const lookup = async () => {
      throw new Error("must not resolve");
    };
    await expect(checkedAddress("127.0.0.1", 80, none, lookup)).rejects.toThrow(
      "127.0.0.1 is a loopback address",
    );
    await expect(checkedAddress("::ffff:a00:1", 80, none, lookup)).rejects.toThrow(
      "is a private address",
    );
  });

  it("admits allow-listed names and addresses", async () => {
    const list = parseAllowlist("idp.test:8443,10.0.0.0/8");
    await expect(checkedAddress("idp.test", 8443, list, fake("127.0.0.1"))).resolves.toBe(
      "127.0.0.1",
    );
    await expect(checkedAddress("idp.test", 8444, list, fake("127.0.0.1"))).rejects.toThrow(
      /loopback/,
    );
    await expect(checkedAddress("x.test", 1, list, fake("10.2.3.4"))).resolves.toBe("10.2.3.4");
  });

  it("a name that does not resolve is unreachable, not refused", async () => {
    const error = await checkedAddress("nx.example", 80, none, async () => {
      throw Object.assign(new Error("ENOTFOUND"), { code: "ENOTFOUND" });
    }).catch((e) => e);
    expect(error.kind).toBe("unreachable");
  });
});
