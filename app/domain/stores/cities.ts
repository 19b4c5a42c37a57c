/**
 * Cities and counties that have (or may have) a showroom, north to south then east: the order of the
 * city filter. Names come from the message catalog (`city.<code>`).
 */
export const CITIES = [
  "taipei",
  "new-taipei",
  "taoyuan",
  "hsinchu-county",
  "taichung",
  "tainan",
  "kaohsiung",
  "yilan",
  "hualien",
] as const;
export type City = (typeof CITIES)[number];

export function isCity(value: unknown): value is City {
  return typeof value === "string" && (CITIES as readonly string[]).includes(value);
}
