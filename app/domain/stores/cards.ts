import type { Locale } from "~/lib/i18n";
import { pick } from "~/lib/localized";
import type { OpenStatus } from "./hours";
import { type PhotoView, photoView } from "./photos";
import type { StoreListItem } from "./stores.server";

/** What a page needs to say whether a store is open: no more (it travels in the page data). */
export type StatusView = {
  open: boolean;
  closesAt: string | null;
  opensNext: OpenStatus["opensNext"];
  todayHours: string[];
  todayExceptional: boolean;
};

export function statusView(status: OpenStatus): StatusView {
  return {
    open: status.open,
    closesAt: status.closesAt,
    opensNext: status.opensNext,
    todayHours: status.today.intervals.map((i) => `${i.open}–${i.close}`),
    todayExceptional: status.today.exceptional,
  };
}

/** A store card in the reader's language. */
export type StoreCardView = {
  id: string;
  name: string;
  city: string;
  district: string;
  address: string;
  photo: PhotoView | null;
  status: StatusView;
  distanceKm: number | null;
};

export function storeCard(item: StoreListItem, locale: Locale): StoreCardView {
  return {
    id: item.id,
    name: pick(item.name, locale),
    city: item.city,
    district: pick(item.district, locale),
    address: pick(item.address, locale),
    photo: item.photo ? photoView(item.photo, locale) : null,
    status: statusView(item.status),
    distanceKm: item.distanceKm === null ? null : Math.round(item.distanceKm * 10) / 10,
  };
}
