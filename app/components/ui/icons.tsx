import type { SVGProps } from "react";

/**
 * The icons the shell and the public pages use, as plain SVG (paths from Lucide, ISC licence). The
 * lucide-react runtime (createLucideIcon, context) costs about 6 kB of gzipped JS on every page;
 * these cost a few hundred bytes. Decorative by default (aria-hidden); pass a title via aria-label
 * on the control instead.
 */
type IconProps = SVGProps<SVGSVGElement>;

/**
 * One icon: Lucide's elements (paths, circles, rects, lines) written as the subpaths of a single
 * path, which draws the same strokes and costs a fraction of the JSX per element.
 */
export function svg(d: string) {
  return function Icon(props: IconProps) {
    return (
      <svg
        xmlns="http://www.w3.org/2000/svg"
        width="24"
        height="24"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden
        {...props}
      >
        <path d={d} />
      </svg>
    );
  };
}

export const CircleUserRound = svg(
  "M17.925 20.056a6 6 0 0 0-11.851.001M8 11a4 4 0 1 0 8 0a4 4 0 1 0 -8 0M2 12a10 10 0 1 0 20 0a10 10 0 1 0 -20 0",
);

export const MapPin = svg(
  "M20 10c0 4.993-5.539 10.193-7.399 11.799a1 1 0 0 1-1.202 0C9.539 20.193 4 14.993 4 10a8 8 0 0 1 16 0M9 10a3 3 0 1 0 6 0a3 3 0 1 0 -6 0",
);

export const Search = svg("M21 21l-4.34-4.34M3 11a8 8 0 1 0 16 0a8 8 0 1 0 -16 0");

export const LocateFixed = svg(
  "M2 12L5 12M19 12L22 12M12 2L12 5M12 19L12 22M5 12a7 7 0 1 0 14 0a7 7 0 1 0 -14 0M9 12a3 3 0 1 0 6 0a3 3 0 1 0 -6 0",
);

export const ChevronLeft = svg("M15 18l-6-6 6-6");

export const ChevronRight = svg("M9 18l6-6-6-6");

export const Mail = svg(
  "M22 7l-8.991 5.727a2 2 0 0 1-2.009 0L2 7M4 4h16a2 2 0 0 1 2 2v12a2 2 0 0 1 -2 2h-16a2 2 0 0 1 -2 -2v-12a2 2 0 0 1 2 -2z",
);

export const Navigation = svg("M3 11L22 2L13 21L11 13L3 11z");

export const Phone = svg(
  "M13.832 16.568a1 1 0 0 0 1.213-.303l.355-.465A2 2 0 0 1 17 15h3a2 2 0 0 1 2 2v3a2 2 0 0 1-2 2A18 18 0 0 1 2 4a2 2 0 0 1 2-2h3a2 2 0 0 1 2 2v3a2 2 0 0 1-.8 1.6l-.468.351a1 1 0 0 0-.292 1.233 14 14 0 0 0 6.392 6.384",
);

export const ArrowRight = svg("M5 12h14M12 5l7 7-7 7");

export const Sparkles = svg(
  "M11.017 2.814a1 1 0 0 1 1.966 0l1.051 5.558a2 2 0 0 0 1.594 1.594l5.558 1.051a1 1 0 0 1 0 1.966l-5.558 1.051a2 2 0 0 0-1.594 1.594l-1.051 5.558a1 1 0 0 1-1.966 0l-1.051-5.558a2 2 0 0 0-1.594-1.594l-5.558-1.051a1 1 0 0 1 0-1.966l5.558-1.051a2 2 0 0 0 1.594-1.594zM20 2v4M22 4h-4M2 20a2 2 0 1 0 4 0a2 2 0 1 0 -4 0",
);

export const Heart = svg(
  "M19 14c1.49-1.46 3-3.21 3-5.5A5.5 5.5 0 0 0 16.5 3c-1.76 0-3 .5-4.5 2-1.5-1.5-2.74-2-4.5-2A5.5 5.5 0 0 0 2 8.5c0 2.3 1.5 4.05 3 5.5l7 7Z",
);

export const LoaderCircle = svg("M21 12a9 9 0 1 1-6.219-8.56");

export const Check = svg("M20 6 9 17l-5-5");

export const X = svg("M18 6 6 18M6 6l12 12");

export const Menu = svg("M4 12h16M4 6h16M4 18h16");

export const ChevronDown = svg("M6 9l6 6 6-6");

export const Eye = svg(
  "M2.06 12.35a1 1 0 0 1 0-.7 10.75 10.75 0 0 1 19.88 0 1 1 0 0 1 0 .7 10.75 10.75 0 0 1-19.88 0M9 12a3 3 0 1 0 6 0a3 3 0 1 0 -6 0",
);

export const EyeOff = svg(
  "M10.73 5.08A10.43 10.43 0 0 1 12 5c7 0 10 7 10 7a13.16 13.16 0 0 1-1.67 2.68M6.61 6.61A13.526 13.526 0 0 0 2 12s3 7 10 7a9.74 9.74 0 0 0 5.39-1.61M2 2l20 20",
);

export const Smartphone = svg(
  "M7 2h10a2 2 0 0 1 2 2v16a2 2 0 0 1 -2 2h-10a2 2 0 0 1 -2 -2v-16a2 2 0 0 1 2 -2zM12 18h.01",
);

/** Lucide's calendar: the appointment links (issue 37). */
export const CalendarDays = svg(
  "M8 2v4M16 2v4M3 10h18M5 4h14a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z",
);
