"use client";

import clsx from "clsx";
import { FileArchive, FolderUp, Loader2 } from "lucide-react";
import { useId, useState, type DragEvent } from "react";
import { buttonClass } from "@/components/ui/button";
import {
  filesOfEntry,
  filesOfInput,
  folderFiles,
  isTarGz,
  packFolder,
  type Archive,
} from "./archive";

const pickButton = clsx(
  buttonClass("secondary", "sm"),
  "cursor-pointer has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-blue-600",
);

/**
 * Drop a .tar.gz or a folder here, or choose one: a folder is packed in the browser. Reports the
 * archive, or an error in words, to its form.
 */
export function ArchivePicker({
  archive,
  error,
  onChange,
}: {
  archive: Archive | null;
  error?: string;
  onChange: (archive: Archive | null, error?: string) => void;
}) {
  const id = useId();
  const [packing, setPacking] = useState(false);
  const [over, setOver] = useState(false);

  const takeFolder = async (name: string, files: { path: string; file: File }[]) => {
    const kept = folderFiles(files);
    if (kept.length === 0) return onChange(null, `The folder ${name} holds no files to upload.`);
    setPacking(true);
    try {
      const label = `${name}/ (${kept.length} ${kept.length === 1 ? "file" : "files"})`;
      onChange({ label, blob: await packFolder(kept) });
    } catch (e) {
      onChange(null, `Could not pack the folder: ${(e as Error).message}`);
    } finally {
      setPacking(false);
    }
  };
  const takeFile = (file: File) =>
    isTarGz(file.name)
      ? onChange({ label: file.name, blob: file })
      : onChange(
          null,
          `${file.name} is not a gzipped tar: choose a .tar.gz (or .tgz) or a folder.`,
        );

  const onDrop = async (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const entry = e.dataTransfer.items[0]?.webkitGetAsEntry();
    if (entry?.isDirectory) return takeFolder(entry.name, await filesOfEntry(entry));
    const file = e.dataTransfer.files[0];
    if (file) takeFile(file);
  };

  return (
    <div className="space-y-1.5">
      <span id={`${id}-label`} className="text-sm font-medium text-zinc-700 dark:text-zinc-300">
        Source
      </span>
      <div
        role="group"
        aria-labelledby={`${id}-label`}
        aria-describedby={`${id}-note`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        className={clsx(
          "flex flex-col items-center gap-3 rounded-lg border-2 border-dashed px-4 py-6 text-center",
          over
            ? "border-blue-500 bg-blue-50 dark:bg-blue-500/10"
            : error
              ? "border-red-400 dark:border-red-500/60"
              : "border-zinc-300 dark:border-zinc-700",
        )}
      >
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          {packing ? (
            <span className="inline-flex items-center gap-1.5">
              <Loader2 aria-hidden className="size-4 animate-spin" /> Packing the folder…
            </span>
          ) : archive ? (
            <>
              Chosen: <span className="font-mono">{archive.label}</span> (
              {formatBytes(archive.blob.size)})
            </>
          ) : (
            "Drop a .tar.gz archive or a project folder here"
          )}
        </p>
        <div className="flex flex-wrap justify-center gap-2">
          <label className={pickButton}>
            <FileArchive aria-hidden className="size-4" />
            Choose archive
            <input
              type="file"
              accept=".tar.gz,.tgz,application/gzip"
              className="sr-only"
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (file) takeFile(file);
                e.target.value = "";
              }}
            />
          </label>
          <label className={pickButton}>
            <FolderUp aria-hidden className="size-4" />
            Choose folder
            <input
              type="file"
              className="sr-only"
              {...{ webkitdirectory: "", directory: "" }}
              onChange={(e) => {
                const files = e.target.files ? filesOfInput(e.target.files) : [];
                const name = files[0]?.path.split("/")[0] ?? "folder";
                if (files.length) void takeFolder(name, files);
                e.target.value = "";
              }}
            />
          </label>
        </div>
      </div>
      <p
        id={`${id}-note`}
        aria-live="polite"
        className={clsx(
          "text-xs",
          error ? "text-red-700 dark:text-red-400" : "text-zinc-500 dark:text-zinc-400",
        )}
      >
        {error ??
          "Up to 200 MiB. A folder is packed here, leaving out .git, node_modules, virtual environments and caches; its .env is uploaded encrypted and never built into the image."}
      </p>
    </div>
  );
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
