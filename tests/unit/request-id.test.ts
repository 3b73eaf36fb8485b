import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { requestIdFrom } from "../../src/server/request-id";
import { unknownRoute } from "../../src/server/rest/not-found";

// Every answer's X-Request-Id comes from one helper: a well-formed incoming id is echoed, any
// other is replaced, also by the handlers that run outside route() (unknown paths).

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const request = (id?: string) =>
  new NextRequest("http://localhost/v2/nowhere", {
    headers: id === undefined ? {} : { "x-request-id": id },
  });

describe("requestIdFrom", () => {
  it("echoes a well-formed id", () => {
    expect(requestIdFrom(new Headers({ "x-request-id": "req-1.a:b_c" }))).toBe("req-1.a:b_c");
  });

  it.each([["bad id with spaces"], ["x".repeat(129)], ["<script>"], [""]])(
    "replaces %j with a fresh UUID",
    (id) => {
      expect(requestIdFrom(new Headers({ "x-request-id": id }))).toMatch(UUID);
    },
  );

  it("makes one when there is none", () => {
    expect(requestIdFrom(new Headers())).toMatch(UUID);
  });
});

describe("handlers outside route()", () => {
  it("an unknown path replaces a malformed id and echoes a good one", async () => {
    expect((await unknownRoute(request("bad id"))).headers.get("x-request-id")).toMatch(UUID);
    expect((await unknownRoute(request("ok-1"))).headers.get("x-request-id")).toBe("ok-1");
  });
});
