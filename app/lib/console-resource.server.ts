import {
  createContext,
  type UNSAFE_DataWithResponseInit as DataWithResponseInit,
  type LoaderFunctionArgs,
  type MiddlewareFunction,
  type RouterContextProvider,
} from "react-router";

/**
 * The console's files and scripts' answers (the CSV exports, the composer's audience count; issue 33 item 12):
 * routes without a page of their own, whose refusals (403 without the permission, 400, 404, an error) are shown
 * as the console's error page, in the console's frame, when a person opens the address, instead of the raw JSON
 * React Router gives a resource route.
 *
 * Such a route exports the `middleware` and `loader` made here and `ErrorBoundary` (the console's error view), so
 * React Router treats it as a page: for a page request the middleware produces the answer (a file stays a
 * streamed file); when producing it throws, the refusal is kept and the page's loaders run, the route's loader
 * throwing it again, so the console's frame shows it with its status. A client-side data request (a fetcher)
 * gets the loader's data as before.
 */

const refusal = createContext<{ error: unknown } | null>(null);

function isRedirect(error: unknown): boolean {
  return error instanceof Response && error.status >= 300 && error.status < 400 && error.headers.has("Location");
}

function asResponse(result: unknown): Response {
  if (result instanceof Response) return result;
  // What `data(value, init)` returns.
  const withInit = result as DataWithResponseInit<unknown> | null;
  if (withInit?.type === "DataWithResponseInit") return Response.json(withInit.data, withInit.init ?? undefined);
  return Response.json(result);
}

export function consoleResource<Args extends LoaderFunctionArgs<Readonly<RouterContextProvider>>>(
  produce: (args: Args) => Promise<unknown>,
): { middleware: MiddlewareFunction<Response>; loader: (args: Args) => Promise<unknown> } {
  return {
    async middleware(args, next) {
      if (new URL(args.request.url).pathname.endsWith(".data")) return next();
      try {
        return asResponse(await produce(args as unknown as Args));
      } catch (error) {
        if (isRedirect(error)) throw error;
        args.context.set(refusal, { error });
        return next();
      }
    },
    async loader(args) {
      const refused = args.context.get(refusal);
      if (refused) throw refused.error;
      return produce(args);
    },
  };
}
