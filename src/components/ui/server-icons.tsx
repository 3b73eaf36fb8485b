import type { ComponentType, ReactNode } from "react";

// Icons that server components render, drawn as plain SVG. lucide-react's Icon is a client
// component: rendering it from a server component (the shell's banner, the not-found pages that
// every page's payload carries) sends lucide's runtime to the browser in one more chunk.
// The drawings are lucide's (ISC), same size and stroke.

export type IconProps = { className?: string; "aria-hidden"?: boolean };
/** What icon slots accept: a lucide-react icon or one of these. */
export type IconComponent = ComponentType<IconProps>;

function serverIcon(name: string, shapes: ReactNode): IconComponent {
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

export const SearchXIcon = serverIcon(
  "search-x",
  <>
    <path d="m13.5 8.5-5 5" />
    <path d="m8.5 8.5 5 5" />
    <circle cx="11" cy="11" r="8" />
    <path d="m21 21-4.3-4.3" />
  </>,
);

export const TriangleAlertIcon = serverIcon(
  "triangle-alert",
  <>
    <path d="m21.73 18-8-14a2 2 0 0 0-3.48 0l-8 14A2 2 0 0 0 4 21h16a2 2 0 0 0 1.73-3" />
    <path d="M12 9v4" />
    <path d="M12 17h.01" />
  </>,
);
