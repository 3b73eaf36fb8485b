import type { ComponentType, ReactNode } from "react";

// The icons of the shell and the deployments list (every page's first load), drawn as plain SVG:
// lucide-react's runtime (its Icon is a client component, with a context) stays out of the first
// load, and server components can draw them without shipping a client chunk. The drawings are
// lucide's (ISC), same size, stroke and class names; other pages use lucide-react directly.

export type IconProps = { className?: string; "aria-hidden"?: boolean };
/** What icon slots accept: a lucide-react icon or one of these. */
export type IconComponent = ComponentType<IconProps>;

export function icon(name: string, shapes: ReactNode): IconComponent {
  const Icon = ({ className, ...props }: IconProps) => (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={24}
      height={24}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={`lucide lucide-${name} ${className ?? ""}`.trim()}
      {...props}
    >
      {shapes}
    </svg>
  );
  Icon.displayName = name;
  return Icon;
}

export const FolderGit2Icon = icon(
  "folder-git-2",
  <>
    <path d="M18 19a5 5 0 0 1-5-5v8" />
    <path d="M9 20H4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h3.9a2 2 0 0 1 1.69.9l.81 1.2a2 2 0 0 0 1.67.9H20a2 2 0 0 1 2 2v5" />
    <circle cx="13" cy="12" r="2" />
    <circle cx="20" cy="19" r="2" />
  </>,
);

export const MenuIcon = icon(
  "menu",
  <>
    <path d="M4 5h16" />
    <path d="M4 12h16" />
    <path d="M4 19h16" />
  </>,
);

export const XIcon = icon(
  "x",
  <>
    <path d="M18 6 6 18" />
    <path d="m6 6 12 12" />
  </>,
);

export const SearchIcon = icon(
  "search",
  <>
    <path d="m21 21-4.34-4.34" />
    <circle cx="11" cy="11" r="8" />
  </>,
);

export const TriangleAlertIcon = icon(
  "triangle-exclamation-point",
  <>
    <path d="m21.73 18-8-14a2 2 0 0 0-3.48 0l-8 14A2 2 0 0 0 4 21h16a2 2 0 0 0 1.73-3" />
    <path d="M12 9v4" />
    <path d="M12 17h.01" />
  </>,
);

export const SearchXIcon = icon(
  "search-x",
  <>
    <path d="m13.5 8.5-5 5" />
    <path d="m8.5 8.5 5 5" />
    <circle cx="11" cy="11" r="8" />
    <path d="m21 21-4.3-4.3" />
  </>,
);

export const ArrowDownIcon = icon(
  "arrow-down",
  <>
    <path d="M12 5v14" />
    <path d="m19 12-7 7-7-7" />
  </>,
);

export const ArrowUpIcon = icon(
  "arrow-up",
  <>
    <path d="m5 12 7-7 7 7" />
    <path d="M12 19V5" />
  </>,
);

export const ArrowUpDownIcon = icon(
  "arrow-up-down",
  <>
    <path d="m21 16-4 4-4-4" />
    <path d="M17 20V4" />
    <path d="m3 8 4-4 4 4" />
    <path d="M7 4v16" />
  </>,
);

export const ChevronDownIcon = icon(
  "chevron-down",
  <>
    <path d="m6 9 6 6 6-6" />
  </>,
);

export const ChevronLeftIcon = icon(
  "chevron-left",
  <>
    <path d="m15 18-6-6 6-6" />
  </>,
);

export const ChevronRightIcon = icon(
  "chevron-right",
  <>
    <path d="m9 18 6-6-6-6" />
  </>,
);
export const Building2Icon = icon(
  "building-complex",
  <>
    <path d="M10 12h4" />
    <path d="M10 8h4" />
    <path d="M14 21v-3a2 2 0 0 0-4 0v3" />
    <path d="M6 10H4a2 2 0 0 0-2 2v7a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2V9a2 2 0 0 0-2-2h-2" />
    <path d="M6 21V5a2 2 0 0 1 2-2h8a2 2 0 0 1 2 2v16" />
  </>,
);
