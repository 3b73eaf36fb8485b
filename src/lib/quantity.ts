// Sizes written as Kubernetes writes them ("512Mi", "4Gi", "20G", plain bytes), so one setting
// bounds a local build (cgroups, bytes) and a build pod (resources, the string as given).

const UNITS: Record<string, number> = {
  "": 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
};

const QUANTITY = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|T)?$/;

/** Bytes of a quantity such as "4Gi"; null when it is not one. */
export function parseByteQuantity(text: string): number | null {
  const match = QUANTITY.exec(text.trim());
  if (!match) return null;
  const bytes = Math.floor(Number(match[1]) * UNITS[match[2] ?? ""]!);
  return Number.isSafeInteger(bytes) && bytes > 0 ? bytes : null;
}

/** "4 GiB", "512 MiB": a size for people. */
export function formatBytes(bytes: number): string {
  for (const [unit, size] of [
    ["GiB", 2 ** 30],
    ["MiB", 2 ** 20],
    ["KiB", 2 ** 10],
  ] as const)
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  return `${bytes} bytes`;
}
