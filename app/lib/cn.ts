/** What cn accepts: strings, falsy values to skip, nested arrays, and { class: condition } objects. */
export type ClassValue = string | number | null | boolean | undefined | ClassValue[] | Record<string, unknown>;

/**
 * Joins class names. No tailwind-merge (it costs ~8 kB gzipped on every page): components take
 * extra classes that add to theirs, they do not override one with a conflicting utility. No clsx
 * either: these few lines do what we use of it, on every page.
 */
export function cn(...inputs: ClassValue[]): string {
  let out = "";
  for (const input of inputs) {
    if (!input) continue;
    let part = "";
    if (typeof input === "string" || typeof input === "number") part = String(input);
    else if (Array.isArray(input)) part = cn(...input);
    else if (typeof input === "object") {
      for (const key in input) if (input[key]) part += part ? ` ${key}` : key;
    }
    if (part) out += out ? ` ${part}` : part;
  }
  return out;
}
