import { createHash } from "node:crypto";
import { LINE_ISSUER } from "@platform/config";
import { createRemoteJWKSet, decodeProtectedHeader, errors, type JWTVerifyGetKey, jwtVerify } from "jose";

/**
 * LINE ID-token checks (PRODUCT.md §3 "LINE", specification §5). Both flows pin their algorithm:
 * web login (authorization code) tokens are HS256 with the channel secret; LIFF tokens are ES256
 * with a key from LINE's JWKS, chosen by `kid`. A token that names another algorithm is refused
 * before any key is looked at, so an HS256 token "signed" with the public key can never pass.
 */
export type IdTokenFlow = "web" | "liff";

export type IdTokenFailure =
  | "missing"
  | "malformed"
  | "alg"
  | "kid"
  | "signature"
  | "iss"
  | "aud"
  | "exp"
  | "iat"
  | "nonce"
  | "sub"
  | "replayed"
  | "keys_unavailable";

export type LineIdentity = {
  /** LINE user id (`sub`): the account id of the `line` login. */
  sub: string;
  name: string | null;
  picture: string | null;
  email: string | null;
  /** When the token expires (its hash is kept until then, so it is accepted once). */
  expiresAt: Date;
  tokenHash: string;
};

export type IdTokenResult = { ok: true; identity: LineIdentity } | { ok: false; reason: IdTokenFailure };

/** Seconds of clock difference tolerated on exp and iat. */
export const CLOCK_SKEW_SECONDS = 30;
/** A LIFF token older than this is refused even when not yet expired. */
const MAX_TOKEN_AGE_SECONDS = 24 * 3600;

const ALGORITHM: Record<IdTokenFlow, "HS256" | "ES256"> = { web: "HS256", liff: "ES256" };

export type VerifyOptions = {
  flow: IdTokenFlow;
  channelId: string;
  /** HS256 key of the web flow. */
  channelSecret: string;
  /** ES256 keys of the LIFF flow, by kid (see lineJwks). */
  keys: JWTVerifyGetKey;
  /** Required when the flow has one (web login); LIFF tokens carry none we issued. */
  nonce?: string;
  now?: Date;
};

export function hashIdToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export async function verifyLineIdToken(
  token: string | null | undefined,
  options: VerifyOptions,
): Promise<IdTokenResult> {
  if (!token) return { ok: false, reason: "missing" };
  const expected = ALGORITHM[options.flow];
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    return { ok: false, reason: "malformed" };
  }
  if (header.alg !== expected) return { ok: false, reason: "alg" };
  if (options.flow === "liff" && typeof header.kid !== "string") return { ok: false, reason: "kid" };

  const now = options.now ?? new Date();
  let payload: Awaited<ReturnType<typeof jwtVerify>>["payload"];
  try {
    const verifyOptions = {
      algorithms: [expected],
      issuer: LINE_ISSUER,
      audience: options.channelId,
      clockTolerance: CLOCK_SKEW_SECONDS,
      maxTokenAge: MAX_TOKEN_AGE_SECONDS,
      requiredClaims: ["exp", "iat", "sub"],
      currentDate: now,
    };
    const result =
      options.flow === "web"
        ? await jwtVerify(token, new TextEncoder().encode(options.channelSecret), verifyOptions)
        : await jwtVerify(token, options.keys, verifyOptions);
    payload = result.payload;
  } catch (error) {
    return { ok: false, reason: failureOf(error) };
  }
  // jose compares iat only against maxTokenAge's window; say plainly that a future iat is refused.
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (typeof payload.iat !== "number" || payload.iat > nowSeconds + CLOCK_SKEW_SECONDS)
    return { ok: false, reason: "iat" };
  if (options.nonce !== undefined && payload.nonce !== options.nonce) return { ok: false, reason: "nonce" };
  if (typeof payload.sub !== "string" || !/^U[0-9a-f]{32}$/.test(payload.sub)) return { ok: false, reason: "sub" };
  const text = (v: unknown) => (typeof v === "string" && v.length > 0 ? v : null);
  return {
    ok: true,
    identity: {
      sub: payload.sub,
      name: text(payload.name),
      picture: text(payload.picture),
      email: text(payload.email),
      expiresAt: new Date((payload.exp as number) * 1000),
      tokenHash: hashIdToken(token),
    },
  };
}

function failureOf(error: unknown): IdTokenFailure {
  if (error instanceof errors.JWTExpired) return error.claim === "iat" ? "iat" : "exp";
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "iss") return "iss";
    if (error.claim === "aud") return "aud";
    if (error.claim === "iat") return "iat";
    if (error.claim === "sub") return "sub";
    return "malformed";
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return "alg";
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) return "kid";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "signature";
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) return "keys_unavailable";
  if (error instanceof TypeError || (error as { code?: string })?.code === "ERR_JOSE_GENERIC")
    return "keys_unavailable";
  return "malformed";
}

const jwksByUrl = new Map<string, JWTVerifyGetKey>();

/**
 * LINE's JWKS, one cache per process: keys are kept for 10 minutes, and an unknown kid reloads them
 * (at most every 30 s), so a key rotation is picked up without a restart.
 */
export function lineJwks(certsUrl: string): JWTVerifyGetKey {
  let keys = jwksByUrl.get(certsUrl);
  if (!keys) {
    keys = createRemoteJWKSet(new URL(certsUrl), {
      cacheMaxAge: 10 * 60_000,
      cooldownDuration: 30_000,
      timeoutDuration: 5_000,
    });
    jwksByUrl.set(certsUrl, keys);
  }
  return keys;
}
