import { Link } from "~/components/ui/link";
import type { Translate } from "~/lib/i18n";
import { links } from "~/lib/links";
import type { FavouriteView } from "./view-types";

/** The materials the member saved, or where to find some. */
export function Favourites({ favourites, t }: { favourites: FavouriteView[]; t: Translate }) {
  if (favourites.length === 0) {
    return (
      <div className="rounded-2xl border border-dashed border-line px-4 py-6 text-center text-muted">
        <p>{t("member.center.favourites.empty")}</p>
        <Link
          to={links.materials()}
          className="mt-2 inline-block font-semibold text-brand-700 underline underline-offset-4"
        >
          {t("member.center.favourites.browse")}
        </Link>
      </div>
    );
  }
  return (
    <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3" data-testid="favourites">
      {favourites.map((f) => (
        <li key={f.id}>
          <Link
            to={links.materialDetail(f.id)}
            className="group block overflow-hidden rounded-2xl border border-line bg-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
          >
            {f.image ? (
              <img
                src={f.image.src}
                alt=""
                width={400}
                height={300}
                loading="lazy"
                decoding="async"
                className="aspect-[4/3] w-full bg-sand object-cover transition group-hover:scale-[1.02]"
              />
            ) : (
              <span className="block aspect-[4/3] bg-sand" />
            )}
            <span className="block truncate px-3 py-2 text-sm font-medium text-ink">{f.name}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
