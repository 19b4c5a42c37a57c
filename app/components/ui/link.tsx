import { forwardRef, use } from "react";
import {
  createPath,
  type LinkProps,
  UNSAFE_NavigationContext as NavigationContext,
  type NavLinkProps,
  type NavLinkRenderProps,
  Link as RouterLink,
  NavLink as RouterNavLink,
  resolvePath,
  useHref,
  useLocation,
} from "react-router";

/**
 * React Router's `Link` and `NavLink`: import them from here, not from "react-router" (Biome says so).
 *
 * In the browser these are React Router's own. On the server they write the same `<a>` with less work
 * (issue 17): React Router's Link runs a click handler, a prefetch state machine and a route-relative
 * resolution (a JSON round trip of the route matches) for every link, and none of that reaches the
 * HTML; it was 9 % of the member center's server render, for 27 links. The server versions:
 *
 * - resolve a target that is an absolute path ("/member-center?tab=points#x") as React Router resolves
 *   one (`resolveTo` comes down to `resolvePath` for it: "." and ".." segments, double slashes, a lone
 *   "?" or "#"), without the route matches an absolute path does not need; any other target (".", "?redeem=…", an object, an
 *   app under a basename) goes through React Router's `useHref`, as before;
 * - give a NavLink the active state React Router's computes (the encoded pathname, case-insensitive
 *   unless `caseSensitive`, `end`, a trailing slash); on the server nothing is pending or in a view
 *   transition. A NavLink to anything but an absolute path, and a Link with a `mask`, are React Router's.
 *
 * Hydration needs the same elements and attributes, not the same components. `link.test.tsx` renders
 * every kind of link both ways and compares the HTML.
 */
export const Link: typeof RouterLink = import.meta.env.SSR
  ? // Both parameters, as forwardRef requires (React warns about any other count, on every import of the server
    // build: every CLI command printed it); a ref never attaches in a server render.
    /* @__PURE__ */ forwardRef<HTMLAnchorElement, LinkProps>(function Link(props, _ref) {
      const { to, mask, discover = "render" } = props;
      const { basename } = use(NavigationContext);
      if (mask) return <RouterLink {...props} />;
      if (typeof to === "string" && ABSOLUTE_URL.test(to)) return anchor(props, to, false);
      if (typeof to !== "string" || !to.startsWith("/") || basename !== "/") return <ResolvedLink {...props} />;
      return anchor(props, createPath(resolvePath(to)), discover === "render");
    })
  : RouterLink;

export const NavLink: typeof RouterNavLink = import.meta.env.SSR
  ? /* @__PURE__ */ forwardRef<HTMLAnchorElement, NavLinkProps>(function NavLink(
      {
        "aria-current": ariaCurrentProp = "page",
        caseSensitive = false,
        className: classNameProp = "",
        end = false,
        style: styleProp,
        to,
        viewTransition,
        children,
        ...rest
      },
      ref,
    ) {
      const location = useLocation();
      const { basename } = use(NavigationContext);
      if (typeof to !== "string" || !to.startsWith("/") || ABSOLUTE_URL.test(to) || basename !== "/") {
        const props = { "aria-current": ariaCurrentProp, caseSensitive, className: classNameProp, end };
        return (
          <RouterNavLink {...rest} {...props} style={styleProp} to={to} viewTransition={viewTransition} ref={ref}>
            {children}
          </RouterNavLink>
        );
      }
      // React Router's server navigator compares the pathname a URL would carry (`encodeLocation`).
      let toPathname = new URL(createPath(resolvePath(to)).replace(/ $/, "%20"), "http://localhost").pathname;
      let locationPathname = location.pathname;
      if (!caseSensitive) {
        locationPathname = locationPathname.toLowerCase();
        toPathname = toPathname.toLowerCase();
      }
      const endSlashPosition =
        toPathname !== "/" && toPathname.endsWith("/") ? toPathname.length - 1 : toPathname.length;
      const isActive =
        locationPathname === toPathname ||
        (!end && locationPathname.startsWith(toPathname) && locationPathname.charAt(endSlashPosition) === "/");
      const renderProps: NavLinkRenderProps = { isActive, isPending: false, isTransitioning: false };
      const className =
        typeof classNameProp === "function"
          ? classNameProp(renderProps)
          : [classNameProp, isActive ? "active" : null].filter(Boolean).join(" ");
      return (
        <Link
          {...rest}
          aria-current={isActive ? ariaCurrentProp : undefined}
          className={className}
          style={typeof styleProp === "function" ? styleProp(renderProps) : styleProp}
          to={to}
          viewTransition={viewTransition}
        >
          {typeof children === "function" ? children(renderProps) : children}
        </Link>
      );
    })
  : RouterNavLink;

// React Router's test for a URL with a scheme, or a protocol-relative one (//host, \\host).
const ABSOLUTE_URL = /^(?:[a-z][a-z0-9+.-]*:|[\\/]{2})/i;

/** A link whose href React Router resolves (relative, an object, or under a basename): its own Link's HTML. */
function ResolvedLink(props: LinkProps) {
  const href = useHref(props.to, { relative: props.relative });
  return anchor(props, href, (props.discover ?? "render") === "render");
}

/** React Router's `<a>`: the props it does not consume, then href, target and data-discover, in its order. */
function anchor(
  {
    onClick: _onClick,
    discover: _discover,
    prefetch: _prefetch,
    relative: _relative,
    reloadDocument: _reloadDocument,
    replace: _replace,
    mask: _mask,
    state: _state,
    target,
    to: _to,
    preventScrollReset: _preventScrollReset,
    viewTransition: _viewTransition,
    defaultShouldRevalidate: _defaultShouldRevalidate,
    ...rest
  }: LinkProps,
  href: string,
  discovered: boolean,
) {
  return <a {...rest} href={href} target={target} data-discover={discovered ? "true" : undefined} />;
}
