import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { DescriptionList, ImageRef, Mono } from "@/components/ui/description-list";
import { IdChip } from "@/components/ui/id-chip";
import type { Deployment } from "@/schemas/deployments";
import { IntegrationName } from "./integration-name";
import { ListenerName } from "./listener-name";

const text = (v: string | null) => (v ? <Mono>{v}</Mono> : null);
const yesNo = (v: boolean | null) => (v === null ? null : v ? "Yes" : "No");

/** Read-only summary; the Settings tab edits it. */
export function SourceCard({ deployment: d }: { deployment: Deployment }) {
  const c = d.source_config;
  const r = d.source_revision_config;
  const items = [
    { label: "Repository", value: text(c.repo_url) },
    { label: "Ref", value: text(r.repo_ref) },
    {
      label: "Commit",
      value: r.repo_commit_sha ? <IdChip id={r.repo_commit_sha} label="commit" /> : null,
    },
    { label: "Graph config path", value: text(r.graph_config_path) },
    { label: "Image", value: r.image_uri ? <ImageRef value={r.image_uri} /> : null },
    { label: "Source tarball", value: text(r.source_tarball_path) },
    { label: "Template", value: text(c.template_id) },
    { label: "Build on push", value: yesNo(c.build_on_push) },
    {
      label: "Previews",
      value: !c.previews
        ? null
        : c.previews.enabled
          ? `On: at most ${c.previews.max_open} open, deleted after ${c.previews.ttl_hours} h without a push, secrets ${c.previews.secrets === "inherit" ? "inherited (never for forks)" : "none"}`
          : "Off",
    },
    { label: "Install command", value: text(c.install_command) },
    { label: "Build command", value: text(c.build_command) },
    {
      label: "Integration",
      value: c.integration_id ? <IntegrationName integrationId={c.integration_id} /> : null,
    },
    {
      label: "Reconciled by",
      value: c.listener_id ? <ListenerName listenerId={c.listener_id} /> : "Hangar",
    },
  ].filter((item) => item.value !== null);
  return (
    <Card>
      <CardHeader title="Source" description="Where this deployment's code comes from." />
      <CardBody>
        <DescriptionList items={items} />
      </CardBody>
    </Card>
  );
}
