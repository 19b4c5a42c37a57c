import { normaliseSearch } from "../catalog/search";
import { type City, isCity } from "./cities";

/** What the store list shows, read from the URL. Unknown or malformed values are ignored, never an error. */
export type StoreFilters = {
  city: City | null;
  openNow: boolean;
  q: string;
  /** The visitor's position for "near me" ordering, rounded to ~1 km (privacy, and cacheable URLs). */
  near: { lat: number; lng: number } | null;
};

export const NEAR_PRECISION = 2;

export function parseStoreFilters(params: URLSearchParams): StoreFilters {
  const city = params.get("city");
  const open = params.get("open");
  return {
    city: isCity(city) ? city : null,
    openNow: open === "1" || open === "true" || open === "on",
    q: normaliseSearch(params.get("q")),
    near: parseNear(params.get("near")),
  };
}

export function parseNear(value: string | null): StoreFilters["near"] {
  if (!value) return null;
  const m = /^(-?\d{1,2}(?:\.\d+)?),(-?\d{1,3}(?:\.\d+)?)$/.exec(value.trim());
  if (!m) return null;
  const lat = Number(m[1]);
  const lng = Number(m[2]);
  if (!(Math.abs(lat) <= 90 && Math.abs(lng) <= 180)) return null;
  return { lat: roundTo(lat, NEAR_PRECISION), lng: roundTo(lng, NEAR_PRECISION) };
}

/** The canonical query string of the filters (only what is set), for links and canonical URLs. */
export function storeFiltersQuery(filters: StoreFilters): string {
  const params = new URLSearchParams();
  if (filters.city) params.set("city", filters.city);
  if (filters.openNow) params.set("open", "1");
  if (filters.q) params.set("q", filters.q);
  if (filters.near) params.set("near", `${filters.near.lat},${filters.near.lng}`);
  const s = params.toString();
  return s ? `?${s}` : "";
}

function roundTo(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** Great-circle distance in kilometres. */
export function distanceKm(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const R = 6371;
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(h)));
}
