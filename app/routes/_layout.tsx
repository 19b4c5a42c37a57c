import { Outlet } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SiteFooter } from "~/components/layout/site-footer";
import { SiteHeader } from "~/components/layout/site-header";

/** The one default layout: header, content, footer. Errors render inside it, so the site stays navigable. */
export default function DefaultLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <SiteHeader />
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <div className="flex min-h-dvh flex-col">
      <SiteHeader />
      <main id="main" className="flex-1">
        <GeneralErrorBoundary />
      </main>
      <SiteFooter />
    </div>
  );
}
