import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A small S3-compatible server for tests (ADR 028): path-style PUT, GET and DELETE of objects in one
 * bucket, every request checked for a valid AWS Signature Version 4 (header form) made with the known
 * key, including the signed payload hash. Written from the AWS specification independently of the
 * client the app uses (aws4fetch), so a signing mistake on either side fails the tests.
 */
export type FakeS3 = {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  objects: Map<string, { body: Buffer; contentType: string }>;
  /** Every request as `METHOD key status`. */
  log: string[];
  close(): Promise<void>;
};

type SignedRequest = {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string | string[] | undefined>;
  payloadHash: string;
};

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data).digest();

/** RFC 3986 encoding as SigV4 wants it (S3: the path is encoded once, slashes kept). */
function uriEncode(value: string, keepSlash: boolean): string {
  return [...Buffer.from(value, "utf8")]
    .map((byte) => {
      const c = String.fromCharCode(byte);
      if (/[A-Za-z0-9\-._~]/.test(c) || (keepSlash && c === "/")) return c;
      return `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
    })
    .join("");
}

function canonicalQuery(query: string): string {
  if (!query) return "";
  return query
    .split("&")
    .map((pair) => pair.split("=").map((part) => uriEncode(decodeURIComponent(part ?? ""), false)))
    .map(([k, v]) => [k ?? "", v ?? ""] as const)
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
}

/**
 * The signature a request must carry (AWS SigV4, header form), for the signed headers it names.
 * Exported to check it against the example in AWS's documentation.
 */
export function expectedSignature(
  request: SignedRequest,
  signedHeaders: string[],
  scope: { date: string; region: string; service: string },
  amzDate: string,
  secretAccessKey: string,
): string {
  const header = (name: string) => {
    const value = request.headers[name];
    return (Array.isArray(value) ? value.join(",") : (value ?? "")).trim().replace(/\s+/g, " ");
  };
  const canonicalRequest = [
    request.method,
    uriEncode(decodeURIComponent(request.path), true),
    canonicalQuery(request.query),
    signedHeaders.map((name) => `${name}:${header(name)}\n`).join(""),
    signedHeaders.join(";"),
    request.payloadHash,
  ].join("\n");
  const scopeText = `${scope.date}/${scope.region}/${scope.service}/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scopeText, sha256(canonicalRequest)].join("\n");
  const key = hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, scope.date), scope.region), scope.service), "aws4_request");
  return createHmac("sha256", key).update(stringToSign).digest("hex");
}

const AUTH =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;

/** Null when the request is signed correctly; otherwise why not. */
export function verifyRequest(
  request: SignedRequest,
  body: Buffer,
  keys: { accessKeyId: string; secretAccessKey: string; region: string },
  now = new Date(),
): string | null {
  const match = AUTH.exec(String(request.headers.authorization ?? ""));
  if (!match) return "no SigV4 Authorization header";
  const [, accessKeyId, date, region, service, signed, signature] = match as unknown as string[];
  if (accessKeyId !== keys.accessKeyId) return "unknown access key";
  if (region !== keys.region || service !== "s3") return "wrong scope";
  const signedHeaders = (signed as string).split(";");
  for (const required of ["host", "x-amz-content-sha256", "x-amz-date"]) {
    if (!signedHeaders.includes(required)) return `${required} not signed`;
  }
  const amzDate = String(request.headers["x-amz-date"] ?? "");
  const at = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!at || amzDate.slice(0, 8) !== date) return "bad x-amz-date";
  const time = Date.UTC(+at[1]!, +at[2]! - 1, +at[3]!, +at[4]!, +at[5]!, +at[6]!);
  if (Math.abs(now.getTime() - time) > 15 * 60_000) return "request time too skewed";
  if (request.payloadHash !== "UNSIGNED-PAYLOAD" && request.payloadHash !== sha256(body)) {
    return "payload hash does not match the body";
  }
  const expected = expectedSignature(
    request,
    signedHeaders,
    { date: date as string, region: region as string, service: service as string },
    amzDate,
    keys.secretAccessKey,
  );
  return timingSafeEqual(Buffer.from(expected), Buffer.from(signature as string)) ? null : "SignatureDoesNotMatch";
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const xmlError = (code: string, message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`;

export async function startFakeS3(options: { bucket?: string; region?: string } = {}): Promise<FakeS3> {
  const bucket = options.bucket ?? "han-media";
  const region = options.region ?? "ap-northeast-1";
  const accessKeyId = "AKIDFAKES3TEST";
  const secretAccessKey = "fake-s3-secret-key-for-tests-only-0123456789";
  const objects = new Map<string, { body: Buffer; contentType: string }>();
  const log: string[] = [];
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const url = new URL(req.url ?? "/", "http://fake");
    const [, bucketName, ...rest] = url.pathname.split("/");
    const key = decodeURIComponent(rest.join("/"));
    const answer = (status: number, text = "", type = "application/xml") => {
      log.push(`${req.method} ${key} ${status}`);
      res.writeHead(status, { "Content-Type": type, "Content-Length": Buffer.byteLength(text) });
      res.end(text);
    };
    const problem = verifyRequest(
      {
        method: req.method ?? "GET",
        path: url.pathname,
        query: url.search.slice(1),
        headers: req.headers,
        payloadHash: String(req.headers["x-amz-content-sha256"] ?? ""),
      },
      body,
      { accessKeyId, secretAccessKey, region },
    );
    if (problem) return answer(403, xmlError("SignatureDoesNotMatch", problem));
    if (bucketName !== bucket) return answer(404, xmlError("NoSuchBucket", "The bucket does not exist"));
    if (!key) return answer(400, xmlError("InvalidRequest", "No key"));
    if (req.method === "PUT") {
      objects.set(key, { body, contentType: String(req.headers["content-type"] ?? "binary/octet-stream") });
      return answer(200);
    }
    if (req.method === "GET") {
      const object = objects.get(key);
      if (!object) return answer(404, xmlError("NoSuchKey", "The specified key does not exist."));
      log.push(`GET ${key} 200`);
      res.writeHead(200, { "Content-Type": object.contentType, "Content-Length": object.body.length });
      return res.end(object.body);
    }
    if (req.method === "DELETE") {
      objects.delete(key);
      return answer(204);
    }
    return answer(405, xmlError("MethodNotAllowed", "Not supported here"));
  });
  server.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bucket,
    region,
    accessKeyId,
    secretAccessKey,
    objects,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
