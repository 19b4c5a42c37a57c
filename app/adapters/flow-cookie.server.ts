import type { RouterContextProvider } from "react-router";
import { createCookie } from "react-router";
import type { z } from "zod";
import { getApp } from "./context.server";

export type FlowCookie<V> = {
  read(context: Readonly<RouterContextProvider>, request: Request): Promise<V | null>;
  write(context: Readonly<RouterContextProvider>, value: V): Promise<string>;
  clear(context: Readonly<RouterContextProvider>): Promise<string>;
};

/**
 * Short-lived signed cookies that carry a multi-step flow's state between requests (the number a
 * code was sent to, a verified reset ticket). Signed, HttpOnly, SameSite=Lax; parsed with Zod.
 */
export function flowCookie<T extends z.ZodType>(
  name: string,
  schema: T,
  maxAgeSeconds: number,
): FlowCookie<z.infer<T>> {
  const cookieFor = (context: Readonly<RouterContextProvider>) => {
    const { config } = getApp(context);
    return createCookie(name, {
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      secure: config.isProduction,
      secrets: [config.secrets.session],
      maxAge: maxAgeSeconds,
    });
  };
  return {
    async read(context: Readonly<RouterContextProvider>, request: Request): Promise<z.infer<T> | null> {
      const raw = await cookieFor(context).parse(request.headers.get("cookie"));
      const parsed = schema.safeParse(raw);
      return parsed.success ? parsed.data : null;
    },
    write(context: Readonly<RouterContextProvider>, value: z.infer<T>): Promise<string> {
      return cookieFor(context).serialize(value);
    },
    clear(context: Readonly<RouterContextProvider>): Promise<string> {
      return cookieFor(context).serialize("", { maxAge: 0 });
    },
  };
}
