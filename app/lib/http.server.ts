import { data } from "react-router";
import { z } from "zod";

/** Store and material ids are URL slugs: lowercase letters, digits and single dashes. */
export const slugId = z
  .string()
  .max(64)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);

/** Throws the 404 page for the request's path. */
export function notFound(request: Request): never {
  const url = new URL(request.url);
  throw data({ path: url.pathname.replace(/\.data$/, "") }, { status: 404, statusText: "Not Found" });
}

/** Parses a route parameter, sending a malformed one to the 404 page. */
export function parseParam<T extends z.ZodType>(schema: T, value: unknown, request: Request): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) notFound(request);
  return parsed.data;
}
