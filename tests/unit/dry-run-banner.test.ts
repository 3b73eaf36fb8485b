import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DryRunBanner } from "../../src/components/shell/dry-run-banner";

// The notice every dashboard page carries: what is a dry run (nothing started, nothing built).

const banner = (runtime: "kubernetes" | "dry_run", builder: "buildah" | "dry_run") =>
  renderToStaticMarkup(createElement(DryRunBanner, { runtime, builder }))
    .replace(/<[^>]+>/g, "")
    .replace(/&#x27;|&apos;/g, "'");

describe("the dry-run notice", () => {
  it("says which half is a dry run, and nothing once both are configured", () => {
    expect(banner("dry_run", "dry_run")).toContain(
      "No cluster is configured (HANGAR_KUBECONFIG) and no image builder (HANGAR_BUILDER)",
    );
    expect(banner("kubernetes", "dry_run")).toContain(
      "Builds are a dry run. No image builder is configured (HANGAR_BUILDER)",
    );
    expect(banner("dry_run", "buildah")).toContain(
      "No cluster is configured (HANGAR_KUBECONFIG): images are built (buildah) and pushed",
    );
    expect(banner("kubernetes", "buildah")).toBe("");
  });
});
