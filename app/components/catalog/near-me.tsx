import { useEffect, useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { buttonVariants } from "~/components/ui/button-variants";
import { LocateFixed } from "~/components/ui/icons";
import { Link } from "~/components/ui/link";
import type { Translate } from "~/lib/i18n";

/**
 * "Sort by distance": asks the browser for the visitor's position and puts it, rounded to about a
 * kilometre, into the URL (`near=lat,lng`), where the server sorts by it. Shown only once the page
 * runs JavaScript; if the visitor refuses (or the browser cannot tell), the list simply stays as it is.
 */
export function NearMe({ t, active }: { t: Translate; active: boolean }) {
  const [ready, setReady] = useState(false);
  const [state, setState] = useState<"idle" | "locating" | "denied">("idle");
  const [params] = useSearchParams();
  const navigate = useNavigate();
  useEffect(() => setReady(typeof navigator !== "undefined" && "geolocation" in navigator), []);

  if (active) {
    const without = new URLSearchParams(params);
    without.delete("near");
    const query = without.toString();
    return (
      <p className="flex flex-wrap items-center gap-3 text-sm text-muted" role="status">
        <LocateFixed aria-hidden className="size-4 text-brand-700" />
        {t("catalog.stores.sortedByDistance")}
        <Link to={query ? `?${query}` : "."} className="underline underline-offset-4 hover:text-ink">
          {t("catalog.stores.clear")}
        </Link>
      </p>
    );
  }
  if (!ready) return null;

  const locate = () => {
    setState("locating");
    navigator.geolocation.getCurrentPosition(
      (position) => {
        const next = new URLSearchParams(params);
        next.set("near", `${position.coords.latitude.toFixed(2)},${position.coords.longitude.toFixed(2)}`);
        setState("idle");
        navigate(`?${next.toString()}`);
      },
      () => setState("denied"),
      { timeout: 10_000, maximumAge: 600_000 },
    );
  };

  return (
    <div className="flex flex-wrap items-center gap-3">
      <button
        type="button"
        onClick={locate}
        disabled={state === "locating"}
        className={buttonVariants({ variant: "secondary", size: "sm" })}
        data-testid="near-me"
      >
        <LocateFixed aria-hidden className="size-4" />
        {state === "locating" ? t("catalog.stores.locating") : t("catalog.stores.nearMe")}
      </button>
      <p role="status" className="text-sm text-muted">
        {state === "denied" ? t("catalog.stores.locationDenied") : ""}
      </p>
    </div>
  );
}
