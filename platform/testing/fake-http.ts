import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request as it arrived on the wire, body bytes untouched. */
export type RecordedRequest = {
  method: string;
  /** Path and query, exactly as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
};

export type FakeHttpServer = {
  /** http://127.0.0.1:PORT */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
};

/**
 * A local HTTP server on 127.0.0.1 and a free port, for fakes of third-party APIs. Every request
 * is recorded with its raw body before the handler answers it.
 */
export async function startFakeHttpServer(
  handle: (request: RecordedRequest, res: ServerResponse, raw: IncomingMessage) => void,
): Promise<FakeHttpServer> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const recorded = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(recorded);
      handle(recorded, res, req);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
