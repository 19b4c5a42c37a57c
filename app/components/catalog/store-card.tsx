import { MapPin } from "~/components/ui/icons";
import { Link } from "~/components/ui/link";
import type { StoreCardView } from "~/domain/stores/cards";
import type { MessageKey, Translate } from "~/lib/i18n";
import { links } from "~/lib/links";
import { OpenBadge, todayHoursText } from "./open-status";
import { StorePhoto } from "./store-photo";

export function StoreCard({ store, t, eager = false }: { store: StoreCardView; t: Translate; eager?: boolean }) {
  return (
    <article
      className="group relative flex w-full flex-col overflow-hidden rounded-3xl border border-line bg-white shadow-[0_1px_2px_rgba(31,28,24,0.04)] transition-shadow hover:shadow-md"
      data-testid="store-card"
      data-store-id={store.id}
    >
      <div className="aspect-[4/3] overflow-hidden bg-sand">
        {store.photo ? (
          <StorePhoto
            photo={store.photo}
            eager={eager}
            sizes="(min-width: 1024px) 33vw, (min-width: 640px) 50vw, 100vw"
            className="transition-transform duration-500 group-hover:scale-[1.02]"
          />
        ) : null}
      </div>
      <div className="flex flex-1 flex-col gap-2 p-5">
        <p className="text-xs tracking-[0.2em] text-brand-700">
          {t(`catalog.city.${store.city}` as MessageKey)} · {store.district}
        </p>
        <h3 className="font-serif text-xl font-semibold">
          <Link
            to={links.storeDetail(store.id)}
            className="after:absolute after:inset-0 focus-visible:outline-none after:rounded-3xl focus-visible:after:outline-2 focus-visible:after:outline-brand-700"
          >
            {store.name}
          </Link>
        </h3>
        <p className="flex items-start gap-1.5 text-sm text-muted">
          <MapPin aria-hidden className="mt-1 size-4 shrink-0" />
          <span>{store.address}</span>
        </p>
        <div className="mt-auto space-y-1 pt-3">
          <OpenBadge status={store.status} t={t} />
          <p className="text-sm text-ink" data-testid="today-hours">
            {todayHoursText(store.status, t)}
            {store.distanceKm !== null ? (
              <span className="text-muted"> · {t("catalog.stores.distance", { km: store.distanceKm })}</span>
            ) : null}
          </p>
        </div>
      </div>
    </article>
  );
}
