/** "02-2723-0101" → "tel:+886227230101": the tap-to-call link, in international form. */
export function telHref(phone: string): string {
  const digits = phone.replace(/\D/g, "");
  return `tel:+886${digits.replace(/^0/, "")}`;
}

/**
 * A universal maps link for the address: phones open their map app (Google Maps, or the browser),
 * desktops the map website. The Chinese address is used, as map apps in Taiwan resolve it best.
 */
export function mapHref(address: string): string {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(address)}`;
}
