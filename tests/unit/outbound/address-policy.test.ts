import { describe, expect, it } from "vitest";
import { canonicalAddress, refusedRange } from "../../../src/server/outbound/address-policy";

describe("refusedRange: every range the outbound policy refuses", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["::1", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["fc00::1", "unique-local"],
    ["fd12:3456::1", "unique-local"],
    ["169.254.0.1", "link-local"],
    ["fe80::1", "link-local"],
    ["169.254.169.254", "cloud metadata"],
    ["fd00:ec2::254", "cloud metadata"],
    ["168.63.129.16", "cloud metadata"],
    ["100.100.100.200", "cloud metadata"],
    ["100.64.0.1", "CGNAT"],
    ["100.127.255.254", "CGNAT"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["ff02::1", "multicast"],
    ["0.0.0.0", "unspecified"],
    ["::", "unspecified"],
    ["255.255.255.255", "broadcast"],
    ["240.0.0.1", "reserved"],
    ["198.18.0.1", "reserved"],
    ["192.0.0.192", "reserved"],
    ["2001:db8::1", "reserved"],
    ["2002:a00:1::1", "tunnel"],
    ["2001::1", "tunnel"],
    // IPv4 carried in IPv6 is judged as the IPv4 address it carries.
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:10.1.2.3", "private"],
    ["::ffff:169.254.169.254", "cloud metadata"],
    ["64:ff9b::a00:1", "private"],
    ["64:ff9b::7f00:1", "loopback"],
    ["not-an-address", "reserved"],
  ])("%s is %s", (address, range) => expect(refusedRange(address)).toBe(range));

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "172.32.0.1",
    "100.128.0.1",
    "192.169.0.1",
    "2606:4700::1111",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
  ])("%s is public", (address) => expect(refusedRange(address)).toBeNull());

  it("canonicalises brackets and IPv6 spelling", () => {
    expect(canonicalAddress("[::1]")).toBe("::1");
    expect(canonicalAddress("0:0:0:0:0:0:0:1")).toBe("::1");
    expect(canonicalAddress("::ffff:7f00:1")).toBe("127.0.0.1");
    expect(canonicalAddress("example.com")).toBeNull();
  });
});
