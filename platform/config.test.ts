import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ConfigError, ENV_VARIABLES, loadConfig, opensTestHooks } from "@platform/config";
import { PRODUCTION_ENV } from "@platform/testing/config-fixtures";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const SECRET = "s".repeat(32);
const PRODUCTION = PRODUCTION_ENV;

const TWILIO_SID = `AC${"0123456789abcdef".repeat(2)}`;
const TWILIO_SERVICE = `MG${"fedcba9876543210".repeat(2)}`;

let dataDir: string;

beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), "config-test-"));
});

afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

/** loadConfig with a private DATA_DIR, so no test writes secrets into the repository. */
function load(env: Record<string, string | undefined> = {}) {
  return loadConfig({ DATA_DIR: dataDir, ...env });
}

function configError(env: Record<string, string | undefined>): ConfigError {
  try {
    load(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe("loadConfig defaults", () => {
  it("runs the embedded development setup with no environment at all", () => {
    const config = load();
    expect(config).toMatchObject({
      appEnv: "development",
      isProduction: false,
      port: 3000,
      host: "0.0.0.0",
      publicBaseUrl: "http://localhost:3000",
      database: { kind: "pglite", dataDir: path.join(dataDir, "pglite") },
      dataDir,
      logLevel: "info",
      enableTestCrud: true,
      trustProxy: false,
      shutdownTimeoutMs: 10_000,
    });
    expect(config.secrets.session.length).toBeGreaterThanOrEqual(32);
  });

  it("defaults DATA_DIR to ./data, resolved against the working directory", () => {
    const config = loadConfig({ SESSION_SECRET: SECRET });
    expect(config.dataDir).toBe(path.resolve("data"));
    expect(config.database).toEqual({ kind: "pglite", dataDir: path.resolve("data", "pglite") });
  });

  it("treats empty strings as unset", () => {
    const config = load({ PORT: "", APP_ENV: "", LOG_LEVEL: "", DATABASE_URL: "" });
    expect(config.port).toBe(3000);
    expect(config.appEnv).toBe("development");
    expect(config.logLevel).toBe("info");
    expect(config.database.kind).toBe("pglite");
  });

  it("reads explicit values", () => {
    const config = load({
      APP_ENV: "test",
      PORT: "8080",
      HOST: "127.0.0.1",
      PUBLIC_BASE_URL: "https://member.example.com/",
      DATABASE_URL: "postgresql://app@localhost/app",
      DATABASE_POOL_MAX: "20",
      DATABASE_PREPARE: "false",
      LOG_LEVEL: "warn",
      TRUST_PROXY: "1",
      SHUTDOWN_TIMEOUT_MS: "2500",
      SESSION_SECRET: SECRET,
    });
    expect(config).toMatchObject({
      appEnv: "test",
      port: 8080,
      host: "127.0.0.1",
      // The trailing slash is dropped so links can be joined with "/path".
      publicBaseUrl: "https://member.example.com",
      database: { kind: "postgres", url: "postgresql://app@localhost/app", poolMax: 20, prepare: false },
      logLevel: "warn",
      trustProxy: 1,
      shutdownTimeoutMs: 2500,
      secrets: { session: SECRET },
    });
  });

  it("derives the public base URL from PORT when none is given", () => {
    expect(load({ PORT: "4123" }).publicBaseUrl).toBe("http://localhost:4123");
  });
});

describe("loadConfig refuses invalid values with one line naming the variable", () => {
  const invalid: [variable: string, value: string][] = [
    ["APP_ENV", "staging"],
    ["PORT", "http"],
    ["PORT", "70000"],
    ["PORT", "-1"],
    ["PUBLIC_BASE_URL", "not a url"],
    ["PUBLIC_BASE_URL", "ftp://member.example.com"],
    ["DATABASE_URL", "mysql://app@localhost/app"],
    ["DATABASE_POOL_MAX", "0"],
    ["DATABASE_POOL_MAX", "many"],
    ["DATABASE_PREPARE", "no"],
    ["SESSION_SECRET", "too-short"],
    ["LOG_LEVEL", "loud"],
    ["ENABLE_TEST_CRUD", "yes"],
    ["TRUST_PROXY", "maybe"],
    ["SHUTDOWN_TIMEOUT_MS", "-5"],
    ["SHUTDOWN_TIMEOUT_MS", "999999999"],
    ["JOBS_POOL_MAX", "1"],
    ["SMS_PROVIDER", "every8d"],
    ["MITAKE_BASE_URL", "smsapi.mitake.com.tw"],
    ["TWILIO_ACCOUNT_SID", "AC123"],
    ["TWILIO_FROM", "0912345678"],
    ["TWILIO_MESSAGING_SERVICE_SID", "MG123"],
    ["TWILIO_BASE_URL", "ftp://api.twilio.com"],
    ["EMAIL_PROVIDER", "sendgrid"],
    ["SMTP_URL", "http://smtp.example.com"],
    ["MAIL_FROM", "not an address"],
  ];

  it.each(invalid)("%s=%s", (variable, value) => {
    const error = configError({ [variable]: value });
    expect(error.name).toBe("ConfigError");
    expect(error.message).not.toContain("\n");
    expect(error.message).toMatch(new RegExp(`^Invalid configuration: ${variable} \\S`));
    // The message names only the offending variable.
    const others = invalid.map(([name]) => name).filter((name) => name !== variable);
    for (const other of others) expect(error.message).not.toContain(other);
  });

  it("reports only the first problem when several variables are wrong", () => {
    const error = configError({ PORT: "x", LOG_LEVEL: "loud" });
    expect(error.message.split("\n")).toHaveLength(1);
    expect(error.message).toMatch(/^Invalid configuration: (PORT|LOG_LEVEL) /);
  });
});

describe("loadConfig in production", () => {
  it("accepts a complete production environment", () => {
    const config = load({ ...PRODUCTION });
    expect(config).toMatchObject({
      appEnv: "production",
      isProduction: true,
      publicBaseUrl: "https://member.example.com",
      database: { kind: "postgres", url: PRODUCTION.DATABASE_URL, poolMax: 10 },
      secrets: { session: SECRET },
      enableTestCrud: false,
    });
    // The secret comes from the environment: nothing is generated on disk.
    expect(existsSync(path.join(dataDir, "secrets.json"))).toBe(false);
  });

  it("sends text messages through the named provider and e-mail over SMTP", () => {
    const config = load({ ...PRODUCTION });
    expect(config.sms).toEqual({
      provider: "mitake",
      baseUrl: "https://smsapi.mitake.com.tw",
      username: "han-living",
      password: "mitake-password",
    });
    expect(config.email).toEqual({
      provider: "smtp",
      url: PRODUCTION.SMTP_URL,
      from: PRODUCTION.MAIL_FROM,
    });
    expect(config.jobs).toEqual({ poolMax: 4 });
  });

  it("refuses the SMS outbox unless SMS_PROVIDER=outbox says so", () => {
    const error = configError({ ...PRODUCTION, SMS_PROVIDER: undefined });
    expect(error.message).toBe(
      "Invalid configuration: SMS_PROVIDER is required when APP_ENV=production (mitake or twilio; outbox only when set explicitly)",
    );
    expect(load({ ...PRODUCTION, SMS_PROVIDER: "outbox" }).sms).toEqual({ provider: "outbox" });
  });

  it("refuses the e-mail outbox unless EMAIL_PROVIDER=outbox says so", () => {
    const error = configError({ ...PRODUCTION, SMTP_URL: undefined });
    expect(error.message).toBe(
      "Invalid configuration: SMTP_URL is required when APP_ENV=production (or set EMAIL_PROVIDER=outbox explicitly)",
    );
    expect(load({ ...PRODUCTION, SMTP_URL: undefined, EMAIL_PROVIDER: "outbox" }).email).toEqual({
      provider: "outbox",
      from: PRODUCTION.MAIL_FROM,
    });
  });

  it.each(["MITAKE_BASE_URL", "TWILIO_BASE_URL"] as const)("requires %s to be https", (variable) => {
    const provider = variable.startsWith("MITAKE") ? {} : twilioEnv();
    const error = configError({ ...PRODUCTION, ...provider, [variable]: "http://127.0.0.1:9999" });
    expect(error.message).toBe(`Invalid configuration: ${variable} must be an https:// URL when APP_ENV=production`);
  });

  it.each(["DATABASE_URL", "SESSION_SECRET", "PUBLIC_BASE_URL", "AUDIT_ANCHOR_KEY"] as const)(
    "requires %s",
    (variable) => {
      const error = configError({ ...PRODUCTION, [variable]: undefined });
      expect(error.message).toBe(`Invalid configuration: ${variable} is required when APP_ENV=production`);
    },
  );

  it("does not require them outside production", () => {
    for (const appEnv of ["development", "test"]) {
      expect(() => load({ APP_ENV: appEnv })).not.toThrow();
    }
  });
});

function twilioEnv(extra: Record<string, string | undefined> = {}) {
  return {
    SMS_PROVIDER: "twilio",
    TWILIO_ACCOUNT_SID: TWILIO_SID,
    TWILIO_AUTH_TOKEN: "twilio-token",
    TWILIO_MESSAGING_SERVICE_SID: TWILIO_SERVICE,
    ...extra,
  };
}

describe("messaging configuration", () => {
  it("uses the outbox for text messages and e-mail outside production", () => {
    for (const appEnv of ["development", "test"]) {
      const config = load({ APP_ENV: appEnv });
      expect(config.sms).toEqual({ provider: "outbox" });
      expect(config.email).toEqual({ provider: "outbox", from: "漢生活 <no-reply@localhost>" });
    }
  });

  it("sends e-mail over SMTP as soon as SMTP_URL is set", () => {
    const config = load({ SMTP_URL: "smtp://127.0.0.1:2525", MAIL_FROM: "dev@example.com" });
    expect(config.email).toEqual({ provider: "smtp", url: "smtp://127.0.0.1:2525", from: "dev@example.com" });
  });

  it("requires MAIL_FROM with SMTP", () => {
    expect(configError({ SMTP_URL: "smtp://127.0.0.1:2525" }).message).toBe(
      "Invalid configuration: MAIL_FROM is required when e-mail is sent over SMTP",
    );
    expect(configError({ EMAIL_PROVIDER: "smtp" }).message).toBe(
      "Invalid configuration: SMTP_URL is required when EMAIL_PROVIDER=smtp",
    );
  });

  it("reads the Mitake settings, base URL configurable", () => {
    const config = load({
      SMS_PROVIDER: "mitake",
      MITAKE_USERNAME: "u",
      MITAKE_PASSWORD: "p",
      MITAKE_BASE_URL: "http://127.0.0.1:9001/",
    });
    expect(config.sms).toEqual({ provider: "mitake", baseUrl: "http://127.0.0.1:9001", username: "u", password: "p" });
  });

  it.each(["MITAKE_USERNAME", "MITAKE_PASSWORD"])("requires %s with SMS_PROVIDER=mitake", (variable) => {
    const env = { SMS_PROVIDER: "mitake", MITAKE_USERNAME: "u", MITAKE_PASSWORD: "p", [variable]: undefined };
    expect(configError(env).message).toBe(`Invalid configuration: ${variable} is required when SMS_PROVIDER=mitake`);
  });

  it("reads the Twilio settings, base URL configurable", () => {
    const config = load(twilioEnv({ TWILIO_BASE_URL: "http://127.0.0.1:9002", TWILIO_FROM: "+15005550006" }));
    expect(config.sms).toEqual({
      provider: "twilio",
      baseUrl: "http://127.0.0.1:9002",
      accountSid: TWILIO_SID,
      authToken: "twilio-token",
      from: "+15005550006",
      messagingServiceSid: TWILIO_SERVICE,
    });
  });

  it.each(["TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN"])("requires %s with SMS_PROVIDER=twilio", (variable) => {
    expect(configError(twilioEnv({ [variable]: undefined })).message).toBe(
      `Invalid configuration: ${variable} is required when SMS_PROVIDER=twilio`,
    );
  });

  it("requires a sender for Twilio: a Messaging Service or a From number", () => {
    expect(configError(twilioEnv({ TWILIO_MESSAGING_SERVICE_SID: undefined })).message).toBe(
      "Invalid configuration: TWILIO_MESSAGING_SERVICE_SID or TWILIO_FROM is required when SMS_PROVIDER=twilio",
    );
    expect(load(twilioEnv({ TWILIO_MESSAGING_SERVICE_SID: undefined, TWILIO_FROM: "HanLiving" })).sms).toMatchObject({
      from: "HanLiving",
      messagingServiceSid: null,
    });
  });

  it("reads JOBS_POOL_MAX", () => {
    expect(load({ JOBS_POOL_MAX: "8" }).jobs).toEqual({ poolMax: 8 });
  });

  it("reads PURCHASE_WINDOW_DAYS (90 days unless set) and refuses nonsense", () => {
    expect(load({}).pos).toEqual({ purchaseWindowDays: 90 });
    expect(load({ PURCHASE_WINDOW_DAYS: "30" }).pos).toEqual({ purchaseWindowDays: 30 });
    for (const bad of ["0", "-1", "1.5", "ninety"]) {
      expect(configError({ PURCHASE_WINDOW_DAYS: bad }).message).toMatch(/PURCHASE_WINDOW_DAYS/);
    }
  });
});

describe("media storage (ADR 028)", () => {
  const S3 = {
    MEDIA_STORAGE: "s3",
    S3_ENDPOINT: "https://s3.ap-northeast-1.amazonaws.com/",
    S3_REGION: "ap-northeast-1",
    S3_BUCKET: "han-media",
    S3_ACCESS_KEY_ID: "AKIDEXAMPLE",
    S3_SECRET_ACCESS_KEY: "secret",
  };

  it("keeps images in the database unless a bucket is configured", () => {
    expect(load({}).media).toEqual({ storage: "database" });
    expect(load({ ...PRODUCTION }).media).toEqual({ storage: "database" });
    expect(load(S3).media).toEqual({
      storage: "s3",
      endpoint: "https://s3.ap-northeast-1.amazonaws.com",
      region: "ap-northeast-1",
      bucket: "han-media",
      accessKeyId: "AKIDEXAMPLE",
      secretAccessKey: "secret",
    });
    expect(load({ ...S3, MEDIA_STORAGE: undefined, S3_REGION: undefined }).media).toMatchObject({
      storage: "s3",
      region: "us-east-1",
    });
  });

  it("never falls back: a bucket asked for needs all its settings, and https in production", () => {
    for (const name of ["S3_ENDPOINT", "S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"]) {
      expect(configError({ ...S3, [name]: undefined }).message).toMatch(new RegExp(`${name} is required`));
    }
    expect(configError({ ...S3, MEDIA_STORAGE: "database" }).message).toMatch(/S3_BUCKET/);
    expect(configError({ ...S3, S3_BUCKET: "Bad_Bucket" }).message).toMatch(/S3_BUCKET/);
    expect(configError({ ...PRODUCTION, ...S3, S3_ENDPOINT: "http://minio:9000" }).message).toMatch(
      /S3_ENDPOINT must be an https/,
    );
    expect(load({ ...S3, S3_ENDPOINT: "http://127.0.0.1:9000" }).media).toMatchObject({
      endpoint: "http://127.0.0.1:9000",
    });
  });
});

describe(".env.example", () => {
  it("documents every variable the server reads", () => {
    const example = readFileSync(path.resolve(import.meta.dirname, "../.env.example"), "utf8");
    const documented = [...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]);
    expect(ENV_VARIABLES.filter((name) => !documented.includes(name))).toEqual([]);
    expect(ENV_VARIABLES.length).toBeGreaterThan(20);
  });
});

describe("enableTestCrud", () => {
  it.each([
    [{}, false],
    [{ ENABLE_TEST_CRUD: "false" }, false],
    [{ ENABLE_TEST_CRUD: "0" }, false],
    [{ ENABLE_TEST_CRUD: "true" }, true],
    [{ ENABLE_TEST_CRUD: "1" }, true],
  ])("in production with %o is %s", (extra, expected) => {
    expect(load({ ...PRODUCTION, ...extra }).enableTestCrud).toBe(expected);
  });

  it.each(["development", "test"])("is on in %s whatever ENABLE_TEST_CRUD says", (appEnv) => {
    expect(load({ APP_ENV: appEnv }).enableTestCrud).toBe(true);
    expect(load({ APP_ENV: appEnv, ENABLE_TEST_CRUD: "false" }).enableTestCrud).toBe(true);
  });
});

describe("TRUST_PROXY", () => {
  it.each([
    [undefined, false],
    ["false", false],
    ["0", false],
    ["1", 1],
    ["2", 2],
    ["10.0.0.5", ["10.0.0.5"]],
    ["10.0.0.0/8, 172.16.0.0/12", ["10.0.0.0/8", "172.16.0.0/12"]],
    ["loopback,uniquelocal", ["loopback", "uniquelocal"]],
    ["fd00::/8,::1", ["fd00::/8", "::1"]],
  ])("reads %j as %j", (value, expected) => {
    expect(load({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it("refuses true, which would believe any X-Forwarded-For", () => {
    expect(configError({ TRUST_PROXY: "true" }).message).toBe(
      "Invalid configuration: TRUST_PROXY=true would trust any X-Forwarded-For; set the number of proxies in front (e.g. 1) or their addresses (e.g. 10.0.0.0/8)",
    );
  });

  it.each(["yes", "10.0.0.0/33", "10.0.0.256", "proxy.internal", "10.0.0.1,", "11", "::1/129"])(
    "refuses %j",
    (value) => {
      expect(configError({ TRUST_PROXY: value }).message).toMatch(/^Invalid configuration: TRUST_PROXY /);
    },
  );
});

describe("test hooks", () => {
  const HOOKS = "h".repeat(32);

  it("are closed unless APP_ENV=test comes with a TEST_HOOKS_SECRET", () => {
    expect(load().testHooks).toBeNull();
    expect(load({ APP_ENV: "test" }).testHooks).toBeNull();
    expect(load({ APP_ENV: "test", TEST_HOOKS_SECRET: HOOKS }).testHooks).toEqual({ secret: HOOKS });
  });

  it("refuse to start with a TEST_HOOKS_SECRET in production or development", () => {
    expect(configError({ ...PRODUCTION, TEST_HOOKS_SECRET: HOOKS }).message).toBe(
      "Invalid configuration: TEST_HOOKS_SECRET is only for APP_ENV=test (the test hooks never run with APP_ENV=production)",
    );
    expect(configError({ TEST_HOOKS_SECRET: HOOKS }).message).toMatch(/^Invalid configuration: TEST_HOOKS_SECRET /);
  });

  it("refuse a short secret", () => {
    expect(configError({ APP_ENV: "test", TEST_HOOKS_SECRET: "short" }).message).toBe(
      "Invalid configuration: TEST_HOOKS_SECRET must be at least 32 characters",
    );
  });

  it("open only to the exact secret", () => {
    const config = load({ APP_ENV: "test", TEST_HOOKS_SECRET: HOOKS });
    expect(opensTestHooks(config, HOOKS)).toBe(true);
    for (const presented of [null, undefined, "", `${HOOKS}h`, HOOKS.slice(1), "H".repeat(32)]) {
      expect(opensTestHooks(config, presented)).toBe(false);
    }
    expect(opensTestHooks(load({ APP_ENV: "test" }), HOOKS)).toBe(false);
  });
});

describe("generated secrets", () => {
  const secretsFile = () => path.join(dataDir, "secrets.json");

  it("are generated once under DATA_DIR, private, and reused", () => {
    const first = load();
    expect(existsSync(secretsFile())).toBe(true);
    expect(statSync(secretsFile()).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(secretsFile(), "utf8")) as { session: string };
    expect(stored.session).toBe(first.secrets.session);

    const second = load();
    expect(second.secrets.session).toBe(first.secrets.session);
  });

  it("differ between data directories", () => {
    const other = mkdtempSync(path.join(tmpdir(), "config-test-other-"));
    try {
      expect(loadConfig({ DATA_DIR: other }).secrets.session).not.toBe(load().secrets.session);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it("creates DATA_DIR when it does not exist yet", () => {
    const nested = path.join(dataDir, "a", "b");
    const config = loadConfig({ DATA_DIR: nested });
    expect(existsSync(path.join(nested, "secrets.json"))).toBe(true);
    expect(config.dataDir).toBe(nested);
  });

  it("replace a stored secret that is too weak", () => {
    writeFileSync(secretsFile(), JSON.stringify({ session: "short" }));
    const config = load();
    expect(config.secrets.session).not.toBe("short");
    expect(config.secrets.session.length).toBeGreaterThanOrEqual(32);
    expect(JSON.parse(readFileSync(secretsFile(), "utf8"))).toEqual({ session: config.secrets.session });
  });

  it("refuse a corrupt secrets file with one line naming it", () => {
    writeFileSync(secretsFile(), "{not json");
    expect(() => load()).toThrowError(ConfigError);
    expect(() => load()).toThrowError(/secrets\.json is not valid JSON/);
  });

  it("give the audit chain's signed head a key the database never sees: AUDIT_ANCHOR_KEY, or derived", () => {
    const derived = load({ SESSION_SECRET: SECRET }).auditAnchor;
    expect(derived).toEqual({
      key: expect.stringMatching(/^[0-9a-f]{64}$/),
      file: path.join(dataDir, "audit-anchor.json"),
    });
    expect(derived.key).not.toContain(SECRET);
    expect(load({ SESSION_SECRET: SECRET }).auditAnchor.key).toBe(derived.key);
    expect(load({ SESSION_SECRET: "t".repeat(32) }).auditAnchor.key).not.toBe(derived.key);
    const given = load({ ...PRODUCTION, AUDIT_ANCHOR_FILE: "/var/lib/han/anchor.json" }).auditAnchor;
    expect(given).toEqual({ key: PRODUCTION.AUDIT_ANCHOR_KEY, file: "/var/lib/han/anchor.json" });
    expect(configError({ AUDIT_ANCHOR_KEY: "short" }).message).toBe(
      "Invalid configuration: AUDIT_ANCHOR_KEY must be at least 32 characters",
    );
  });

  it("are not generated when SESSION_SECRET is set", () => {
    expect(load({ SESSION_SECRET: SECRET }).secrets.session).toBe(SECRET);
    expect(existsSync(secretsFile())).toBe(false);
  });
});
