import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ConfigError, loadConfig } from "@platform/config";
import { PRODUCTION_ENV } from "@platform/testing/config-fixtures";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { contentSecurityPolicy } from "../security";
import { lineCspOrigins } from "./csp";

const SECRET = "s".repeat(32);
const PRODUCTION = PRODUCTION_ENV;
const CHANNEL = { LINE_CHANNEL_ID: "1657000000", LINE_CHANNEL_SECRET: "0123456789abcdef0123456789abcdef" };

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), "line-config-"));
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe("LINE configuration", () => {
  it("uses the local provider on this server when no channel is configured outside production", () => {
    const config = loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: SECRET, PORT: "4100" });
    expect(config.line).toMatchObject({
      mode: "local",
      channelId: "1000000001",
      authorizeUrl: "/__line/oauth2/v2.1/authorize",
      apiBaseUrl: "http://127.0.0.1:4100/__line",
      certsUrl: "http://127.0.0.1:4100/__line/oauth2/v2.1/certs",
    });
    // The same secret on every instance (derived from SESSION_SECRET), never the session secret itself.
    const again = loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: SECRET, PORT: "4100" });
    expect(again.line.mode !== "disabled" && again.line.channelSecret).toBe(
      config.line.mode !== "disabled" && config.line.channelSecret,
    );
    expect(config.line.mode !== "disabled" && config.line.channelSecret).not.toContain(SECRET);
  });

  it("turns LINE off in production without a channel (never the local provider)", () => {
    expect(loadConfig({ ...PRODUCTION, DATA_DIR: dataDir }).line).toEqual({ mode: "disabled" });
  });

  it("reads a real channel with LINE's hosts by default, each host configurable", () => {
    const config = loadConfig({ ...PRODUCTION, ...CHANNEL, LIFF_ID: "1657000000-AbCdEfGh", DATA_DIR: dataDir });
    expect(config.line).toEqual({
      mode: "channel",
      channelId: "1657000000",
      channelSecret: CHANNEL.LINE_CHANNEL_SECRET,
      liffId: "1657000000-AbCdEfGh",
      authorizeUrl: "https://access.line.me/oauth2/v2.1/authorize",
      apiBaseUrl: "https://api.line.me",
      certsUrl: "https://api.line.me/oauth2/v2.1/certs",
    });
    const custom = loadConfig({
      ...CHANNEL,
      DATA_DIR: dataDir,
      LINE_ACCESS_BASE_URL: "http://line-fake.internal:9000/",
      LINE_API_BASE_URL: "http://line-fake.internal:9001",
      LINE_CERTS_URL: "http://line-fake.internal:9001/keys",
    });
    expect(custom.line).toMatchObject({
      authorizeUrl: "http://line-fake.internal:9000/oauth2/v2.1/authorize",
      apiBaseUrl: "http://line-fake.internal:9001",
      certsUrl: "http://line-fake.internal:9001/keys",
    });
  });

  it("refuses half a channel, a LIFF app of another channel, and http hosts in production", () => {
    expect(() => loadConfig({ LINE_CHANNEL_ID: "1657000000", DATA_DIR: dataDir })).toThrow(
      /LINE_CHANNEL_SECRET is required/,
    );
    expect(() => loadConfig({ LINE_CHANNEL_SECRET: CHANNEL.LINE_CHANNEL_SECRET, DATA_DIR: dataDir })).toThrow(
      /LINE_CHANNEL_ID is required/,
    );
    expect(() => loadConfig({ ...CHANNEL, LIFF_ID: "1111111111-AbCdEfGh", DATA_DIR: dataDir })).toThrow(
      /LIFF_ID must belong/,
    );
    expect(() => loadConfig({ LIFF_ID: "1657000000-AbCdEfGh", DATA_DIR: dataDir })).toThrow(ConfigError);
    expect(() =>
      loadConfig({ ...PRODUCTION, ...CHANNEL, LINE_API_BASE_URL: "http://api.line.me", DATA_DIR: dataDir }),
    ).toThrow(/LINE_API_BASE_URL must be an https/);
    expect(() => loadConfig({ LINE_CHANNEL_ID: "abc", DATA_DIR: dataDir })).toThrow(/LINE_CHANNEL_ID/);
  });

  it("lets the page reach LINE's hosts (CSP) only with a real channel", () => {
    const local = loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: SECRET });
    expect(lineCspOrigins(local.line)).toEqual([]);
    const real = loadConfig({ ...PRODUCTION, ...CHANNEL, LIFF_ID: "1657000000-AbCdEfGh", DATA_DIR: dataDir });
    const origins = lineCspOrigins(real.line);
    expect(origins).toEqual(
      expect.arrayContaining([
        "https://access.line.me",
        "https://api.line.me",
        "https://liff.line.me",
        // The home-screen shortcut (ADR 035).
        "https://liff-shortcut.line.me",
      ]),
    );
    const policy = contentSecurityPolicy("n0nce==", { isProduction: true, isViteDev: false, lineOrigins: origins });
    expect(policy).toContain("form-action 'self' https://access.line.me");
    expect(policy).toMatch(/connect-src 'self'[^;]*https:\/\/api\.line\.me/);
  });

  describe("Messaging API (the Official Account)", () => {
    const MESSAGING = {
      LINE_MESSAGING_CHANNEL_SECRET: "abcdef0123456789abcdef0123456789",
      LINE_MESSAGING_ACCESS_TOKEN: "A".repeat(40),
    };

    it("uses the local fake outside production, with secrets every instance derives alike", () => {
      const config = loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: SECRET, PORT: "4100" });
      expect(config.lineMessaging).toMatchObject({ mode: "local", apiBaseUrl: "http://127.0.0.1:4100/__line" });
      const again = loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: SECRET, PORT: "4100" });
      expect(again.lineMessaging).toEqual(config.lineMessaging);
    });

    it("is off in production without a channel, and reads a configured one with an https host", () => {
      expect(loadConfig({ ...PRODUCTION, DATA_DIR: dataDir }).lineMessaging).toEqual({ mode: "disabled" });
      expect(loadConfig({ ...PRODUCTION, ...MESSAGING, DATA_DIR: dataDir }).lineMessaging).toEqual({
        mode: "channel",
        channelSecret: MESSAGING.LINE_MESSAGING_CHANNEL_SECRET,
        accessToken: MESSAGING.LINE_MESSAGING_ACCESS_TOKEN,
        apiBaseUrl: "https://api.line.me",
      });
      expect(() =>
        loadConfig({
          ...PRODUCTION,
          ...MESSAGING,
          LINE_MESSAGING_API_BASE_URL: "http://line.internal",
          DATA_DIR: dataDir,
        }),
      ).toThrow(ConfigError);
    });

    it("refuses half a channel", () => {
      const { LINE_MESSAGING_ACCESS_TOKEN: _token, ...secretOnly } = MESSAGING;
      expect(() => loadConfig({ ...PRODUCTION, ...secretOnly, DATA_DIR: dataDir })).toThrow(
        /LINE_MESSAGING_ACCESS_TOKEN/,
      );
    });
  });
});
