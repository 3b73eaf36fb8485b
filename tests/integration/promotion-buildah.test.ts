import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decrypt } from "../../src/server/crypto";
import { startBuildStack, type BuildStack } from "../helpers/build-stack";
import { waitForRevision } from "../helpers/engine";
import { api } from "../helpers/http";
import { pythonProject } from "../helpers/stack-builds";
import { tarGz } from "../helpers/tarball";
import {
  buildUpload,
  createDeploymentForUpload,
  issueUploadUrl,
  putUpload,
} from "../helpers/uploads";

// Promotion of a really built image (HANGAR_BUILDER=buildah, a real registry, the fake Kubernetes
// API): the target's new revision runs the built digest on the cluster and nothing is built for
// it: no build step, no build token, no new image.

let stack: BuildStack;

beforeAll(async () => {
  stack = await startBuildStack({});
}, 240_000);
afterAll(() => stack?.stop());

const key = () => stack.tenant.keys.editor;
const finished = (revisionId: string) =>
  waitForRevision(revisionId, undefined, { db: stack.db, timeoutMs: 90_000 });

describe("promotion of a buildah-built image", () => {
  it("deploys the same digest on the target with its own secret, building nothing", async () => {
    const suffix = Date.now().toString(36);
    const dev = (
      await createDeploymentForUpload(key(), `dev-${suffix}`, { baseUrl: stack.baseUrl })
    ).id as string;
    const { upload_url, object_path } = await issueUploadUrl(key(), dev, stack.baseUrl);
    const project = tarGz(pythonProject(stack.baseImage, "graph = 'proven in dev'\n"));
    expect((await putUpload(upload_url, project)).status).toBe(200);
    const patched = await buildUpload(key(), dev, object_path, { baseUrl: stack.baseUrl });
    expect(patched.status, patched.text).toBe(200);
    const built = await finished(patched.body.latest_revision_id);
    expect(built.status, built.statusMessage ?? "").toBe("DEPLOYED");
    expect(built.imageDigest).toMatch(/^sha256:[a-f0-9]{64}$/);

    const prod = await createDeploymentForUpload(key(), `prod-${suffix}`, {
      baseUrl: stack.baseUrl,
      extra: {
        source_config: { deployment_type: "prod" },
        secrets: [{ name: "PROD_TOKEN", value: "prod-only" }],
      },
    });
    // Awaiting its first upload: promotion gives it its first revision.
    expect(prod.latest_revision_id).toBeNull();
    const buildsBefore = await stack.db.pushToken.count();

    const promoted = await api(`/v2/deployments/${dev}/revisions/${built.id}/promote`, {
      key: key(),
      baseUrl: stack.baseUrl,
      method: "POST",
      body: { target_deployment_id: prod.id },
    });
    expect(promoted.status, promoted.text).toBe(200);
    const cut = await finished(promoted.body.latest_revision_id);
    expect(cut.status, cut.statusMessage ?? "").toBe("DEPLOYED");
    expect(cut).toMatchObject({
      source: "internal_container",
      imageDigest: built.imageDigest,
      imageRef: built.imageRef,
      runtime: "kubernetes",
      buildPlan: null,
    });
    const secrets = cut.secretsEncrypted as { name: string; value_encrypted: string }[];
    expect(secrets.map((s) => [s.name, decrypt(s.value_encrypted)])).toEqual([
      ["PROD_TOKEN", "prod-only"],
    ]);
    // Nothing built: no build step in its log, no build token issued.
    const log = (
      await stack.db.revisionLog.findMany({
        where: { revisionId: cut.id },
        orderBy: { seq: "asc" },
      })
    ).map((l) => l.line);
    expect(log).toContain(`Container source: nothing to build, image ${built.imageRef}`);
    expect(log.filter((line) => /^STEP \d|Build started|Build finished/.test(line))).toEqual([]);
    expect(await stack.db.pushToken.count()).toBe(buildsBefore);
    // The cluster was asked to run the dev image by digest in the prod deployment's workload.
    type Workload = {
      kind: string;
      metadata: { name: string };
      spec: { template: { spec: { containers: { image: string }[] } } };
    };
    const prodImages = [...stack.kube.objects.values()]
      .map((o) => o as unknown as Workload)
      .filter((o) => o.kind === "Deployment" && o.metadata.name === `prod-${suffix}`)
      .flatMap((o) => o.spec.template.spec.containers.map((c) => c.image));
    expect(prodImages).toContain(built.imageRef);
  }, 180_000);
});
