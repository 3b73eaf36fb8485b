import { FolderGit2 } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/shell/page-header";
import { buttonClass } from "@/components/ui/button";
import { Card, CardBody } from "@/components/ui/card";

export const metadata: Metadata = { title: "Import a repository" };

export default function ImportPage() {
  return (
    <>
      <PageHeader
        title="Import a repository"
        description="Create a deployment from a repository on your code host."
      />
      <Card className="max-w-2xl">
        <CardBody className="flex gap-4 py-6">
          <div className="h-fit rounded-full bg-zinc-100 p-3 dark:bg-zinc-800">
            <FolderGit2 aria-hidden className="size-5 text-zinc-600 dark:text-zinc-300" />
          </div>
          <div className="space-y-3 text-sm text-zinc-700 dark:text-zinc-300">
            <p>
              Importing needs a code-host integration: Hangar reads the repository through it and
              builds on every push.
            </p>
            <p>
              Until the import wizard arrives here, create deployments with the REST API:{" "}
              <code className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs dark:bg-zinc-800">
                POST /v2/deployments
              </code>{" "}
              with an API key.
            </p>
            <div className="flex flex-wrap gap-2 pt-2">
              <a href="/openapi.json" className={buttonClass("primary", "sm")}>
                API reference
              </a>
              <Link href="/deployments" className={buttonClass("secondary", "sm")}>
                Back to deployments
              </Link>
            </div>
          </div>
        </CardBody>
      </Card>
    </>
  );
}
