import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
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
  DATA_DIR: z.string().min(1).default("./data"),
  SESSION_SECRET: secret.optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  ENABLE_TEST_CRUD: booleanFlag,
  RENDER_CACHE_MS: z.coerce.number().int().min(0).max(600_000).default(5_000),
  SEED_DEMO_CONTENT: z.enum(["true", "false", "1", "0", "auto"]).default("auto"),
  TRUST_PROXY: booleanFlag,
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(120_000).default(10_000),
});

export type AppConfig = {
  appEnv: "development" | "test" | "production";
  isProduction: boolean;
  port: number;
  host: string;
  publicBaseUrl: string;
  database: { kind: "postgres"; url: string; poolMax: number } | { kind: "pglite"; dataDir: string };
  dataDir: string;
  secrets: { session: string };
  logLevel: z.infer<typeof envSchema>["LOG_LEVEL"];
  enableTestCrud: boolean;
  /** How long one instance reuses a rendered public page for other anonymous visitors (0 = off). */
  renderCacheMs: number;
  /** Load the demo catalogue (stores, materials) into an empty database at start. */
  seedDemoContent: boolean;
  trustProxy: boolean;
  shutdownTimeoutMs: number;
};

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
  if (isProduction && !e.PUBLIC_BASE_URL) {
    throw new ConfigError("Invalid configuration: PUBLIC_BASE_URL is required when APP_ENV=production");
  }

  const secrets = e.SESSION_SECRET ? { session: e.SESSION_SECRET } : loadOrCreateLocalSecrets(dataDir);

  return {
    appEnv: e.APP_ENV,
    isProduction,
    port: e.PORT,
    host: e.HOST,
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ""),
    database: e.DATABASE_URL
      ? { kind: "postgres", url: e.DATABASE_URL, poolMax: e.DATABASE_POOL_MAX }
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
    trustProxy: e.TRUST_PROXY,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
  };
}
