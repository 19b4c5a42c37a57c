import { useFetcher, useLocation } from "react-router";
import { buttonVariants } from "~/components/ui/button-variants";
import { Heart } from "~/components/ui/icons";
import { Link } from "~/components/ui/link";
import { useT } from "~/lib/i18n";
import { links } from "~/lib/links";

/**
 * Save a material to the member's favourites. Logged out: a link to the login page that comes back
 * here. The state flips at once (optimistic) and works without JavaScript as a plain form post.
 */
export function FavouriteButton({ saved }: { saved: boolean | null }) {
  const t = useT();
  const fetcher = useFetcher<{ favourite: boolean }>();
  const location = useLocation();
  if (saved === null) {
    return (
      <Link to={links["member-login"](location.pathname)} className={buttonVariants({ variant: "secondary" })}>
        <Heart className="size-5" />
        {t("favourite.loginToSave")}
      </Link>
    );
  }
  const pendingIntent = fetcher.formData?.get("intent");
  const isSaved = pendingIntent ? pendingIntent === "save" : (fetcher.data?.favourite ?? saved);
  return (
    <fetcher.Form method="post">
      <button
        type="submit"
        name="intent"
        value={isSaved ? "remove" : "save"}
        aria-pressed={isSaved}
        className={buttonVariants({ variant: isSaved ? "brand" : "secondary" })}
      >
        <Heart className="size-5" fill={isSaved ? "currentColor" : "none"} />
        {isSaved ? t("favourite.saved") : t("favourite.save")}
      </button>
    </fetcher.Form>
  );
}
