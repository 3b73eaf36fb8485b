import { createTarPacker } from "modern-tar";

// Source archives in the browser: a chosen .tar.gz as it is, or a folder packed into a gzipped
// tar (modern-tar writes the tar, the browser's CompressionStream gzips it) with the folder's
// contents at the archive's root, as the deploy client packs a project.

/** The upload route's limit (contract 11): larger archives are refused before uploading. */
export const MAX_ARCHIVE_BYTES = 200 * 1024 * 1024;

/** Folders never worth uploading: version control, dependencies and caches. */
const SKIPPED = new Set([
  ".git",
  "node_modules",
  "__pycache__",
  ".venv",
  "venv",
  ".mypy_cache",
  ".pytest_cache",
  ".ruff_cache",
]);

export interface FolderFile {
  /** Path inside the folder, "/"-separated, without the folder's own name. */
  path: string;
  file: File;
}

export interface Archive {
  /** What the user chose, for the page: "agent.tar.gz", or "my-agent/ (12 files)". */
  label: string;
  blob: Blob;
}

export const isTarGz = (name: string) => /\.(tar\.gz|tgz)$/i.test(name);

/** Files of a folder, without the chosen folder's name and without skipped folders. */
export function folderFiles(files: { path: string; file: File }[]): FolderFile[] {
  return files
    .map(({ path, file }) => ({ path: path.split("/").slice(1).join("/"), file }))
    .filter(({ path }) => path && !path.split("/").some((part) => SKIPPED.has(part)));
}

/** Packs a folder's files into a gzipped tar. */
export async function packFolder(files: FolderFile[]): Promise<Blob> {
  const { readable, controller } = createTarPacker();
  const gzip = new CompressionStream("gzip");
  const archive = new Response(
    readable.pipeThrough(gzip as unknown as ReadableWritablePair<Uint8Array, Uint8Array>),
  ).blob();
  for (const { path, file } of files) {
    const body = controller.add({
      name: path,
      size: file.size,
      type: "file",
      mode: 0o644,
      mtime: new Date(file.lastModified),
    });
    await file.stream().pipeTo(body);
  }
  controller.finalize();
  return archive;
}

/** The folder chosen in a file input with `webkitdirectory` (paths from webkitRelativePath). */
export function filesOfInput(list: FileList): { path: string; file: File }[] {
  return Array.from(list, (file) => ({ path: file.webkitRelativePath || file.name, file }));
}

/** A dropped folder's files, read through the entries API, with their folder-relative paths. */
export async function filesOfEntry(
  entry: FileSystemEntry,
  prefix = "",
): Promise<{ path: string; file: File }[]> {
  const path = prefix ? `${prefix}/${entry.name}` : entry.name;
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) =>
      (entry as FileSystemFileEntry).file(resolve, reject),
    );
    return [{ path, file }];
  }
  if (SKIPPED.has(entry.name) && prefix) return [];
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  const children: FileSystemEntry[] = [];
  // readEntries answers in batches until it answers none.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) =>
      reader.readEntries(resolve, reject),
    );
    if (batch.length === 0) break;
    children.push(...batch);
  }
  return (await Promise.all(children.map((child) => filesOfEntry(child, path)))).flat();
}
