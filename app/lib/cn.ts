import { type ClassValue, clsx } from "clsx";

/**
 * Joins class names. No tailwind-merge (it costs ~8 kB gzipped on every page): components take
 * extra classes that add to theirs, they do not override one with a conflicting utility.
 */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
