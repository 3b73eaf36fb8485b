import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { CreateForm } from "@/components/create/create-form";
import { isCreateKind, kindsIn, type CreateKind } from "@/components/create/create-model";
import { PageHeader } from "@/components/shell/page-header";
import { getInfo } from "@/server/services/service-info";
import { HydrateClient } from "@/trpc/server";
import { loadMe } from "@/trpc/session";
import { ViewerRefusal } from "../viewer-refusal";

type Params = Promise<{ kind: string }>;

const titles: Record<CreateKind, string> = {
  image: "New deployment from a container image",
  template: "New deployment from a template",
  upload: "New deployment from uploaded source",
};

/** The kinds this installation's mode accepts; others are not found. */
async function kindOf(params: Params): Promise<CreateKind> {
  const { kind } = await params;
  if (!isCreateKind(kind) || !kindsIn(getInfo().mode).includes(kind)) notFound();
  return kind;
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  return { title: titles[await kindOf(params)] };
}

export default async function NewDeploymentFromPage({ params }: { params: Params }) {
  const kind = await kindOf(params);
  const me = await loadMe();
  return (
    <>
      <PageHeader title={titles[kind]} description={<BackToSources />} />
      {me?.role === "viewer" ? (
        <ViewerRefusal />
      ) : (
        <HydrateClient>
          <CreateForm kind={kind} mode={getInfo().mode} />
        </HydrateClient>
      )}
    </>
  );
}

function BackToSources() {
  return (
    <Link href="/new" className="text-blue-700 hover:underline dark:text-blue-400">
      Choose another source
    </Link>
  );
}
