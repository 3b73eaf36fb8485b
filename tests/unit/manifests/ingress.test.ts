import type { V1Ingress } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { renderManifests } from "../../../src/server/jobs/manifests";
import { inputWith } from "./fixtures";

// The deployment's URL becomes its Ingress host: only a DNS name gets there. A custom_url stored
// before the URL rule (javascript:, an IP address) gets no Ingress: an empty host matches all hosts.

const ingressesOf = (url: string) =>
  renderManifests({ ...inputWith(), url }).filter((o): o is V1Ingress => o.kind === "Ingress");

describe("Ingress host", () => {
  it("is the URL's DNS name, lowercased, without port or path", () => {
    const [ingress, ...more] = ingressesOf("https://Agent.Example.com:8443/v1");
    expect(more).toEqual([]);
    expect(ingress!.spec!.rules!.map((r) => r.host)).toEqual(["agent.example.com"]);
  });

  it.each([
    "javascript:alert(document.domain)//",
    "data:text/html,<script>alert(1)</script>",
    "JAVASCRIPT://agent.example.com/%0aalert(1)",
    "http://10.0.0.1/",
    "http://*.example.com/",
  ])("is never taken from %j", (url) => {
    expect(ingressesOf(url)).toEqual([]);
  });
});
