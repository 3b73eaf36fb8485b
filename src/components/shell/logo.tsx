export function Logo({ withName = false }: { withName?: boolean }) {
  return (
    <span className="inline-flex items-center gap-2">
      <svg aria-hidden viewBox="0 0 32 32" className="size-8">
        <rect width="32" height="32" rx="8" className="fill-zinc-900 dark:fill-zinc-100" />
        <path d="M7 22 L16 9 L25 22 Z" className="fill-white dark:fill-zinc-900" />
        <rect
          x="13"
          y="17"
          width="6"
          height="5"
          rx="1"
          className="fill-zinc-900 dark:fill-zinc-100"
        />
      </svg>
      {withName && (
        <span className="hidden text-[15px] font-semibold tracking-tight sm:inline">Hangar</span>
      )}
    </span>
  );
}
