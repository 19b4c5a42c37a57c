import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import path from "node:path";
import { BRAND_NAME } from "@platform/constants";
import { z } from "zod";

/**
 * Every setting comes from the environment and is validated here, once, at boot.
 * A missing or malformed value stops the process with one line naming the variable.
 */
const booleanFlag = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => v === "true" || v === "1");

const secret = z.string().min(32, "must be at least 32 characters");

const httpUrl = z.url({ protocol: /^https?$/ });
const present = z.string().min(1);

/** `no-reply@example.com` or `漢生活 <no-reply@example.com>`. */
const MAIL_FROM = /^(?:[^<>@]*<[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+)$/;

export const MITAKE_DEFAULT_BASE_URL = "https://smsapi.mitake.com.tw";
export const TWILIO_DEFAULT_BASE_URL = "https://api.twilio.com";
export const LINE_DEFAULT_ACCESS_BASE_URL = "https://access.line.me";
export const LINE_DEFAULT_API_BASE_URL = "https://api.line.me";
/** The issuer of every LINE ID token, web and LIFF alike (also what the local provider issues). */
export const LINE_ISSUER = "https://access.line.me";
/** The path the local LINE-compatible provider is mounted under (development and tests only). */
export const LOCAL_LINE_PATH = "/__line";
/** The channel id the local provider answers for. */
export const LOCAL_LINE_CHANNEL_ID = "1000000001";
/** The From of outbox e-mails when MAIL_FROM is not set (they are never sent). */
export const OUTBOX_MAIL_FROM = `${BRAND_NAME} <no-reply@localhost>`;

const envSchema = z.object({
  APP_ENV: z.enum(["development", "test", "production"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * "false" behind a pooler in transaction mode that cannot keep prepared statements (PgBouncer before 1.21,
   * e.g. Debian 12's 1.18): the driver then sends every statement unprepared (docs/scaling.md).
   */
  DATABASE_PREPARE: z.enum(["true", "false"]).default("true"),
  /**
   * PostgreSQL itself for the cache invalidation bus's LISTEN connection when DATABASE_URL goes through a
   * pooler in transaction mode, where LISTEN does not work (ADR 026); default DATABASE_URL.
   */
  DATABASE_LISTEN_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  SESSION_SECRET: secret.optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  ENABLE_TEST_CRUD: booleanFlag,
  RENDER_CACHE_MS: z.coerce.number().int().min(0).max(600_000).default(5_000),
  SEED_DEMO_CONTENT: z.enum(["true", "false", "1", "0", "auto"]).default("auto"),
  TRUST_PROXY: z.string().optional(),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(120_000).default(10_000),
  JOBS_POOL_MAX: z.coerce.number().int().min(2).max(50).default(4),
  PURCHASE_WINDOW_DAYS: z.coerce.number().int().min(1).max(3660).default(90),
  TEST_HOOKS_SECRET: secret.optional(),
  METRICS_TOKEN: z.string().min(32, "must be at least 32 characters").optional(),
  /**
   * Signs the audit chain's head (ADR 020): a key the database never sees, so whoever holds the database
   * alone cannot cut the newest rows off or recompute the chain unnoticed. Required in production.
   */
  AUDIT_ANCHOR_KEY: secret.optional(),
  /** Where the signed head is kept; default `$DATA_DIR/audit-anchor.json`. Outside the database's reach. */
  AUDIT_ANCHOR_FILE: z.string().min(1).optional(),

  SMS_PROVIDER: z.enum(["outbox", "mitake", "twilio"]).optional(),
  MITAKE_USERNAME: present.optional(),
  MITAKE_PASSWORD: present.optional(),
  MITAKE_BASE_URL: httpUrl.default(MITAKE_DEFAULT_BASE_URL),
  TWILIO_ACCOUNT_SID: z
    .string()
    .regex(/^AC[0-9a-fA-F]{32}$/, "must be an Account SID (AC followed by 32 hex digits)")
    .optional(),
  TWILIO_AUTH_TOKEN: present.optional(),
  TWILIO_FROM: z
    .string()
    .regex(
      /^(?:\+[1-9]\d{7,14}|(?=[^A-Za-z]*[A-Za-z])[A-Za-z0-9 ]{1,11})$/,
      "must be an E.164 number (+…) or an alphanumeric sender id (up to 11 characters, at least one letter)",
    )
    .optional(),
  TWILIO_MESSAGING_SERVICE_SID: z
    .string()
    .regex(/^MG[0-9a-fA-F]{32}$/, "must be a Messaging Service SID (MG followed by 32 hex digits)")
    .optional(),
  TWILIO_BASE_URL: httpUrl.default(TWILIO_DEFAULT_BASE_URL),

  EMAIL_PROVIDER: z.enum(["smtp", "outbox"]).optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/\S+$/, "must be an smtp:// or smtps:// URL")
    .refine((v) => URL.canParse(v), "must be an smtp:// or smtps:// URL")
    .optional(),
  MAIL_FROM: z.string().regex(MAIL_FROM, 'must be an address or "Name <address>"').optional(),

  LINE_CHANNEL_ID: z
    .string()
    .regex(/^\d{6,20}$/, "must be the numeric LINE Login channel id")
    .optional(),
  LINE_CHANNEL_SECRET: z
    .string()
    .regex(/^[0-9a-fA-F]{16,64}$/, "must be the channel secret (hex)")
    .optional(),
  LIFF_ID: z
    .string()
    .regex(/^\d{6,20}-[A-Za-z0-9]{4,20}$/, "must be a LIFF app id (channel id, dash, suffix)")
    .optional(),
  LINE_ACCESS_BASE_URL: httpUrl.default(LINE_DEFAULT_ACCESS_BASE_URL),
  LINE_API_BASE_URL: httpUrl.default(LINE_DEFAULT_API_BASE_URL),
  LINE_CERTS_URL: httpUrl.optional(),

  MEDIA_STORAGE: z.enum(["database", "s3"]).optional(),
  S3_ENDPOINT: httpUrl.optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]{2,32}$/, "must be a region name such as ap-northeast-1 (or auto)")
    .default("us-east-1"),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "must be a bucket name (3–63 lowercase letters, digits, dots, dashes)")
    .optional(),
  S3_ACCESS_KEY_ID: present.optional(),
  S3_SECRET_ACCESS_KEY: present.optional(),
  /** The Messaging API channel of the brand's Official Account (same provider as the login channel). */
  LINE_MESSAGING_CHANNEL_SECRET: z
    .string()
    .regex(/^[0-9a-fA-F]{16,64}$/, "must be the Messaging API channel secret (hex)")
    .optional(),
  LINE_MESSAGING_ACCESS_TOKEN: z
    .string()
    .regex(/^[A-Za-z0-9+/=._-]{20,400}$/, "must be a channel access token")
    .optional(),
  LINE_MESSAGING_API_BASE_URL: httpUrl.optional(),
  /** LINE's data host for uploads (a rich menu's image; ADR 049): https://api-data.line.me unless set. */
  LINE_MESSAGING_DATA_API_BASE_URL: httpUrl.optional(),
});

/**
 * The header that carries TEST_HOOKS_SECRET: the /__test hooks and the X-Test-Now clock answer only
 * requests that send it (the test runner generates one secret per run).
 */
export const TEST_HOOKS_HEADER = "x-test-hooks-secret";

/**
 * The request header that carries the client address the server decided on (Express's `req.ip`,
 * after TRUST_PROXY). The server overwrites whatever a client sent in it, and better-auth reads only
 * this header, so the library and our own limits see the same address.
 */
export const CLIENT_ADDRESS_HEADER = "x-han-client-address";

/** The names of every variable loadConfig reads (each one is documented in .env.example). */
export const ENV_VARIABLES = Object.keys(envSchema.shape);

export type SmsConfig =
  | { provider: "outbox" }
  | { provider: "mitake"; baseUrl: string; username: string; password: string }
  | {
      provider: "twilio";
      baseUrl: string;
      accountSid: string;
      authToken: string;
      from: string | null;
      messagingServiceSid: string | null;
    };

/**
 * LINE Login. `channel`: a real channel (every host configurable); `local`: no channel configured
 * outside production, so the local LINE-compatible provider on this server stands in (ADR 013);
 * `disabled`: production without a channel (the LINE buttons are hidden).
 */
export type LineConfig =
  | { mode: "disabled" }
  | {
      mode: "channel" | "local";
      channelId: string;
      channelSecret: string;
      liffId: string | null;
      /** Where the browser is sent to authorize (LINE's access host). Relative for the local provider. */
      authorizeUrl: string;
      /** The API host the server calls: token, verify, certs, revoke, profile, friendship. */
      apiBaseUrl: string;
      certsUrl: string;
    };

/**
 * Where uploaded images' variants are kept (ADR 028): the app's own database by default (works for
 * the embedded database and for several instances on PostgreSQL), or an S3-compatible bucket.
 */
export type MediaConfig =
  | { storage: "database" }
  | {
      storage: "s3";
      /** The service's base URL (path-style requests: `<endpoint>/<bucket>/<key>`). */
      endpoint: string;
      region: string;
      bucket: string;
      accessKeyId: string;
      secretAccessKey: string;
    };

/**
 * The LINE Messaging API (the Official Account: pushes, webhook). `channel`: configured; `local`: the
 * local fake on this server (development and tests, never production); `disabled`: production without
 * a channel, so the other channels carry every message.
 */
export type LineMessagingConfig =
  | { mode: "disabled" }
  | {
      mode: "channel" | "local";
      /** Verifies the webhook's x-line-signature (HMAC-SHA256 of the raw body). */
      channelSecret: string;
      accessToken: string;
      /** Where the server sends pushes: `${apiBaseUrl}/v2/bot/message/push`. */
      apiBaseUrl: string;
      /** Where uploads go (a rich menu's image, ADR 049): LINE's api-data host unless set. */
      dataApiBaseUrl?: string;
    };

export type EmailConfig = { provider: "outbox"; from: string } | { provider: "smtp"; url: string; from: string };

export type AppConfig = {
  appEnv: "development" | "test" | "production";
  isProduction: boolean;
  port: number;
  host: string;
  publicBaseUrl: string;
  database:
    | { kind: "postgres"; url: string; poolMax: number; prepare?: boolean; listenUrl?: string }
    | { kind: "pglite"; dataDir: string };
  dataDir: string;
  secrets: { session: string };
  logLevel: z.infer<typeof envSchema>["LOG_LEVEL"];
  enableTestCrud: boolean;
  /** How long one instance reuses a rendered public page for other anonymous visitors (0 = off). */
  renderCacheMs: number;
  /** Load the demo catalogue (stores, materials) into an empty database at start. */
  seedDemoContent: boolean;
  /**
   * Which proxies in front may say who the client is (Express's `trust proxy`): false (none, the
   * socket's peer is the client), a hop count, or the proxies' addresses and subnets.
   */
  trustProxy: TrustProxy;
  shutdownTimeoutMs: number;
  /**
   * The browser tests' hooks (/__test, X-Test-Now): only with APP_ENV=test and a per-run
   * TEST_HOOKS_SECRET, and only for requests that send that secret. Null everywhere else.
   */
  testHooks: { secret: string } | null;
  sms: SmsConfig;
  email: EmailConfig;
  jobs: { poolMax: number };
  /** Point of sale: purchases older than this many days are refused (purchase_too_old). */
  pos: { purchaseWindowDays: number };
  line: LineConfig;
  lineMessaging: LineMessagingConfig;
  /** Bearer token for /metrics; null: /metrics answers 404. */
  metricsToken: string | null;
  /** The audit chain's signed head (ADR 020): the HMAC key and the file it is kept in. */
  auditAnchor: { key: string; file: string };
  media: MediaConfig;
};

export type TrustProxy = false | number | string[];

/** The names Express (proxy-addr) accepts for well-known private ranges. */
const PROXY_RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry) || isIP(entry) !== 0) return true;
  const [address, prefix, ...rest] = entry.split("/");
  if (rest.length > 0 || !address || !prefix || !/^\d{1,3}$/.test(prefix)) return false;
  const version = isIP(address);
  return version !== 0 && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: unset, `false` or `0` = no proxy; a number = that many proxies in front (the client
 * is the address the outermost one saw); otherwise a comma-separated list of proxy addresses or
 * subnets (`10.0.0.0/8`, `loopback`). `true` is refused: it would believe whatever a client writes in
 * X-Forwarded-For, so anyone could pose as any address and walk past every per-IP limit.
 */
function parseTrustProxy(value: string | undefined): TrustProxy {
  const trimmed = value?.trim() ?? "";
  if (trimmed === "" || trimmed === "false" || trimmed === "0") return false;
  if (trimmed === "true") {
    throw new ConfigError(
      "Invalid configuration: TRUST_PROXY=true would trust any X-Forwarded-For; set the number of proxies in front (e.g. 1) or their addresses (e.g. 10.0.0.0/8)",
    );
  }
  if (/^\d+$/.test(trimmed)) {
    const hops = Number(trimmed);
    if (hops > 10) throw new ConfigError("Invalid configuration: TRUST_PROXY must be at most 10 proxies");
    return hops;
  }
  const entries = trimmed.split(",").map((entry) => entry.trim());
  const bad = entries.find((entry) => !isProxyAddress(entry));
  if (bad !== undefined) {
    throw new ConfigError(
      `Invalid configuration: TRUST_PROXY must be a number of proxies or a list of their addresses/subnets ("${bad}" is neither)`,
    );
  }
  return entries;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

type GeneratedSecrets = { session: string };

/** Secrets for the embedded default are generated once and kept under DATA_DIR. */
function loadOrCreateLocalSecrets(dataDir: string): GeneratedSecrets {
  const file = path.join(dataDir, "secrets.json");
  if (existsSync(file)) {
    let stored: unknown;
    try {
      stored = JSON.parse(readFileSync(file, "utf8"));
    } catch {
      throw new ConfigError(
        `Invalid configuration: ${file} is not valid JSON (fix it, or delete it to generate new secrets)`,
      );
    }
    const parsed = z.object({ session: secret }).safeParse(stored);
    if (parsed.success) return parsed.data;
  }
  mkdirSync(dataDir, { recursive: true });
  const created = { session: randomBytes(32).toString("base64url") };
  writeFileSync(file, `${JSON.stringify(created, null, 2)}\n`, { mode: 0o600 });
  return created;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  // Empty strings count as unset, as they do in most .env tooling.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? "environment");
    throw new ConfigError(`Invalid configuration: ${name} ${issue?.message ?? "is invalid"}`);
  }
  const e = parsed.data;
  const isProduction = e.APP_ENV === "production";
  const dataDir = path.resolve(e.DATA_DIR);

  if (isProduction && !e.DATABASE_URL) {
    throw new ConfigError("Invalid configuration: DATABASE_URL is required when APP_ENV=production");
  }
  if (isProduction && !e.SESSION_SECRET) {
    throw new ConfigError("Invalid configuration: SESSION_SECRET is required when APP_ENV=production");
  }
  if (isProduction && !e.AUDIT_ANCHOR_KEY) {
    throw new ConfigError("Invalid configuration: AUDIT_ANCHOR_KEY is required when APP_ENV=production");
  }
  if (isProduction && !e.PUBLIC_BASE_URL) {
    throw new ConfigError("Invalid configuration: PUBLIC_BASE_URL is required when APP_ENV=production");
  }

  if (e.TEST_HOOKS_SECRET && e.APP_ENV !== "test") {
    throw new ConfigError(
      `Invalid configuration: TEST_HOOKS_SECRET is only for APP_ENV=test (the test hooks never run with APP_ENV=${e.APP_ENV})`,
    );
  }

  const sms = smsConfig(e, isProduction);
  const email = emailConfig(e, isProduction);

  const secrets = e.SESSION_SECRET ? { session: e.SESSION_SECRET } : loadOrCreateLocalSecrets(dataDir);

  return {
    appEnv: e.APP_ENV,
    isProduction,
    port: e.PORT,
    host: e.HOST,
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ""),
    database: e.DATABASE_URL
      ? {
          kind: "postgres",
          url: e.DATABASE_URL,
          poolMax: e.DATABASE_POOL_MAX,
          prepare: e.DATABASE_PREPARE === "true",
          listenUrl: e.DATABASE_LISTEN_URL,
        }
      : { kind: "pglite", dataDir: path.join(dataDir, "pglite") },
    dataDir,
    secrets,
    logLevel: e.LOG_LEVEL,
    enableTestCrud: !isProduction || e.ENABLE_TEST_CRUD,
    renderCacheMs: e.RENDER_CACHE_MS,
    // auto: the embedded default outside production gets the demo catalogue on its first start.
    seedDemoContent:
      e.SEED_DEMO_CONTENT === "auto"
        ? !isProduction && !e.DATABASE_URL
        : e.SEED_DEMO_CONTENT === "true" || e.SEED_DEMO_CONTENT === "1",
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    testHooks: e.TEST_HOOKS_SECRET ? { secret: e.TEST_HOOKS_SECRET } : null,
    sms,
    email,
    jobs: { poolMax: e.JOBS_POOL_MAX },
    pos: { purchaseWindowDays: e.PURCHASE_WINDOW_DAYS },
    line: lineConfig(e, isProduction, secrets.session),
    lineMessaging: lineMessagingConfig(e, isProduction, secrets.session),
    metricsToken: e.METRICS_TOKEN ?? null,
    auditAnchor: {
      // Outside production: derived from the session secret (kept in secrets.json, never in the database).
      key: e.AUDIT_ANCHOR_KEY ?? createHmac("sha256", secrets.session).update("audit-anchor-key").digest("hex"),
      file: path.resolve(e.AUDIT_ANCHOR_FILE ?? path.join(dataDir, "audit-anchor.json")),
    },
    media: mediaConfig(e, isProduction),
  };
}

/** Whether a request's TEST_HOOKS_HEADER value opens the test hooks (compared in constant time). */
export function opensTestHooks(config: Pick<AppConfig, "testHooks">, presented: string | null | undefined): boolean {
  if (!config.testHooks || !presented) return false;
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(presented), digest(config.testHooks.secret));
}

type Env = z.infer<typeof envSchema>;

function requireValue<T>(value: T | undefined, name: string, when: string): T {
  if (value === undefined) throw new ConfigError(`Invalid configuration: ${name} is required when ${when}`);
  return value;
}

function requireHttpsInProduction(url: string, name: string, isProduction: boolean): string {
  if (isProduction && !url.startsWith("https://")) {
    throw new ConfigError(`Invalid configuration: ${name} must be an https:// URL when APP_ENV=production`);
  }
  return url.replace(/\/+$/, "");
}

/**
 * Text messages: the outbox is the default outside production only. Production must name its
 * provider, and gets the outbox only when SMS_PROVIDER=outbox says so (never silently).
 */
function smsConfig(e: Env, isProduction: boolean): SmsConfig {
  const provider = e.SMS_PROVIDER ?? (isProduction ? undefined : "outbox");
  if (!provider) {
    throw new ConfigError(
      "Invalid configuration: SMS_PROVIDER is required when APP_ENV=production (mitake or twilio; outbox only when set explicitly)",
    );
  }
  if (provider === "outbox") return { provider };
  const when = `SMS_PROVIDER=${provider}`;
  if (provider === "mitake") {
    return {
      provider,
      baseUrl: requireHttpsInProduction(e.MITAKE_BASE_URL, "MITAKE_BASE_URL", isProduction),
      username: requireValue(e.MITAKE_USERNAME, "MITAKE_USERNAME", when),
      password: requireValue(e.MITAKE_PASSWORD, "MITAKE_PASSWORD", when),
    };
  }
  const accountSid = requireValue(e.TWILIO_ACCOUNT_SID, "TWILIO_ACCOUNT_SID", when);
  const authToken = requireValue(e.TWILIO_AUTH_TOKEN, "TWILIO_AUTH_TOKEN", when);
  if (!e.TWILIO_FROM && !e.TWILIO_MESSAGING_SERVICE_SID) {
    throw new ConfigError(
      `Invalid configuration: TWILIO_MESSAGING_SERVICE_SID or TWILIO_FROM is required when ${when}`,
    );
  }
  return {
    provider,
    baseUrl: requireHttpsInProduction(e.TWILIO_BASE_URL, "TWILIO_BASE_URL", isProduction),
    accountSid,
    authToken,
    from: e.TWILIO_FROM ?? null,
    messagingServiceSid: e.TWILIO_MESSAGING_SERVICE_SID ?? null,
  };
}

/** E-mail: SMTP when SMTP_URL is set; the outbox otherwise, outside production or when asked for. */
function emailConfig(e: Env, isProduction: boolean): EmailConfig {
  const provider = e.EMAIL_PROVIDER ?? (e.SMTP_URL ? "smtp" : isProduction ? undefined : "outbox");
  if (!provider) {
    throw new ConfigError(
      "Invalid configuration: SMTP_URL is required when APP_ENV=production (or set EMAIL_PROVIDER=outbox explicitly)",
    );
  }
  if (provider === "outbox") return { provider, from: e.MAIL_FROM ?? OUTBOX_MAIL_FROM };
  return {
    provider,
    url: requireValue(e.SMTP_URL, "SMTP_URL", "EMAIL_PROVIDER=smtp"),
    from: requireValue(e.MAIL_FROM, "MAIL_FROM", "e-mail is sent over SMTP"),
  };
}

/**
 * The LINE Messaging API: the secret and the access token come together. Without them, development and
 * tests use the local fake mounted beside the local LINE provider (secrets derived from the session
 * secret, so every instance agrees); production turns LINE messages off.
 */
function lineMessagingConfig(e: Env, isProduction: boolean, sessionSecret: string): LineMessagingConfig {
  if (e.LINE_MESSAGING_CHANNEL_SECRET || e.LINE_MESSAGING_ACCESS_TOKEN) {
    const channelSecret = requireValue(
      e.LINE_MESSAGING_CHANNEL_SECRET,
      "LINE_MESSAGING_CHANNEL_SECRET",
      "LINE_MESSAGING_ACCESS_TOKEN is set",
    );
    const accessToken = requireValue(
      e.LINE_MESSAGING_ACCESS_TOKEN,
      "LINE_MESSAGING_ACCESS_TOKEN",
      "LINE_MESSAGING_CHANNEL_SECRET is set",
    );
    const apiBaseUrl = requireHttpsInProduction(
      e.LINE_MESSAGING_API_BASE_URL ?? e.LINE_API_BASE_URL,
      "LINE_MESSAGING_API_BASE_URL",
      isProduction,
    );
    const dataApiBaseUrl = e.LINE_MESSAGING_DATA_API_BASE_URL
      ? requireHttpsInProduction(e.LINE_MESSAGING_DATA_API_BASE_URL, "LINE_MESSAGING_DATA_API_BASE_URL", isProduction)
      : undefined;
    return { mode: "channel", channelSecret, accessToken, apiBaseUrl, ...(dataApiBaseUrl ? { dataApiBaseUrl } : {}) };
  }
  if (isProduction) return { mode: "disabled" };
  const derive = (purpose: string) => createHmac("sha256", sessionSecret).update(purpose).digest("hex");
  return {
    mode: "local",
    channelSecret: derive("local-line-messaging-secret").slice(0, 32),
    accessToken: derive("local-line-messaging-token"),
    apiBaseUrl: `http://127.0.0.1:${e.PORT}${LOCAL_LINE_PATH}`,
  };
}

/**
 * LINE: a configured channel needs its id and secret together. Without one, development and tests
 * use the local provider mounted on this server (its secret derived from the session secret, so
 * every instance agrees); production never does: LINE is then off and its buttons hidden.
 */
function lineConfig(e: Env, isProduction: boolean, sessionSecret: string): LineConfig {
  if (e.LINE_CHANNEL_ID || e.LINE_CHANNEL_SECRET) {
    const channelId = requireValue(e.LINE_CHANNEL_ID, "LINE_CHANNEL_ID", "LINE_CHANNEL_SECRET is set");
    const channelSecret = requireValue(e.LINE_CHANNEL_SECRET, "LINE_CHANNEL_SECRET", "LINE_CHANNEL_ID is set");
    if (e.LIFF_ID && !e.LIFF_ID.startsWith(`${channelId}-`)) {
      throw new ConfigError(
        "Invalid configuration: LIFF_ID must belong to LINE_CHANNEL_ID (it starts with the channel id)",
      );
    }
    const accessBase = requireHttpsInProduction(e.LINE_ACCESS_BASE_URL, "LINE_ACCESS_BASE_URL", isProduction);
    const apiBaseUrl = requireHttpsInProduction(e.LINE_API_BASE_URL, "LINE_API_BASE_URL", isProduction);
    return {
      mode: "channel",
      channelId,
      channelSecret,
      liffId: e.LIFF_ID ?? null,
      authorizeUrl: `${accessBase}/oauth2/v2.1/authorize`,
      apiBaseUrl,
      certsUrl: requireHttpsInProduction(
        e.LINE_CERTS_URL ?? `${apiBaseUrl}/oauth2/v2.1/certs`,
        "LINE_CERTS_URL",
        isProduction,
      ),
    };
  }
  if (e.LIFF_ID) throw new ConfigError("Invalid configuration: LINE_CHANNEL_ID is required when LIFF_ID is set");
  if (isProduction) return { mode: "disabled" };
  // The server calls its own provider over loopback, with the same HTTP as LINE's.
  const apiBaseUrl = `http://127.0.0.1:${e.PORT}${LOCAL_LINE_PATH}`;
  return {
    mode: "local",
    channelId: LOCAL_LINE_CHANNEL_ID,
    channelSecret: createHmac("sha256", sessionSecret).update("local-line-channel-secret").digest("hex").slice(0, 32),
    liffId: `${LOCAL_LINE_CHANNEL_ID}-localliff`,
    authorizeUrl: `${LOCAL_LINE_PATH}/oauth2/v2.1/authorize`,
    apiBaseUrl,
    certsUrl: `${apiBaseUrl}/oauth2/v2.1/certs`,
  };
}

/**
 * Media storage: the database unless MEDIA_STORAGE=s3 (or an S3_BUCKET is set, which asks for the bucket).
 * A bucket asked for needs all of its settings: the app never quietly keeps images somewhere else.
 */
function mediaConfig(e: Env, isProduction: boolean): MediaConfig {
  const storage = e.MEDIA_STORAGE ?? (e.S3_BUCKET ? "s3" : "database");
  if (storage === "database") {
    if (e.S3_BUCKET) {
      throw new ConfigError("Invalid configuration: S3_BUCKET is set but MEDIA_STORAGE=database (remove one)");
    }
    return { storage };
  }
  const when = "MEDIA_STORAGE=s3";
  return {
    storage,
    endpoint: requireHttpsInProduction(requireValue(e.S3_ENDPOINT, "S3_ENDPOINT", when), "S3_ENDPOINT", isProduction),
    region: e.S3_REGION,
    bucket: requireValue(e.S3_BUCKET, "S3_BUCKET", when),
    accessKeyId: requireValue(e.S3_ACCESS_KEY_ID, "S3_ACCESS_KEY_ID", when),
    secretAccessKey: requireValue(e.S3_SECRET_ACCESS_KEY, "S3_SECRET_ACCESS_KEY", when),
  };
}
