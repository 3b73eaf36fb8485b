import { ChevronRightIcon, type IconComponent } from "@/components/ui/icons";
import Link from "next/link";
import { BoxIcon, GitBranchIcon, LayoutTemplateIcon, UploadIcon } from "./create-icons";
import { kindsIn, type CreateKind } from "./create-model";

const choices: Record<
  CreateKind | "codehost",
  { title: string; detail: string; href: string; icon: IconComponent }
> = {
  codehost: {
    title: "Import from a code host",
    detail: "A repository and branch: each push can cut a revision.",
    href: "/import",
    icon: GitBranchIcon,
  },
  image: {
    title: "Container image",
    detail: "Run an image from a registry as it is.",
    href: "/new/image",
    icon: BoxIcon,
  },
  template: {
    title: "Template",
    detail: "Start from a ready-made agent.",
    href: "/new/template",
    icon: LayoutTemplateIcon,
  },
  upload: {
    title: "Upload source",
    detail: "Drop a .tar.gz or a project folder; Hangar builds it.",
    href: "/new/upload",
    icon: UploadIcon,
  },
};

/** Where a new deployment can come from in this mode; the code-host wizard stays at /import. */
export function SourceChoices({ mode }: { mode: "managed" | "self_hosted" }) {
  const kinds = mode === "managed" ? (["codehost", ...kindsIn(mode)] as const) : kindsIn(mode);
  return (
    <ul aria-label="Sources" className="grid gap-3 sm:grid-cols-2">
      {kinds.map((kind) => {
        const { title, detail, href, icon: Icon } = choices[kind];
        return (
          <li key={kind}>
            <Link
              href={href}
              className="flex h-full items-center gap-4 rounded-lg border border-zinc-200 bg-white p-4 shadow-xs hover:border-zinc-300 hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-zinc-800 dark:bg-zinc-900/40 dark:hover:border-zinc-700 dark:hover:bg-zinc-800/50"
            >
              <Icon aria-hidden className="size-5 shrink-0 text-zinc-500 dark:text-zinc-400" />
              <span className="min-w-0 flex-1">
                <span className="block text-sm font-medium">{title}</span>
                <span className="block text-xs text-zinc-600 dark:text-zinc-400">{detail}</span>
              </span>
              <ChevronRightIcon aria-hidden className="size-4 text-zinc-400" />
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
