import type { AppConfig } from "@platform/config";

/**
 * What the browser needs to know about LINE (root loader): whether the buttons show, the LIFF app
 * id, and whether @line/liff-mock may stand in for the LINE app (never in production).
 */
export function lineClientSettings(config: AppConfig) {
  if (config.line.mode === "disabled") return { enabled: false, liffId: null, mock: false };
  return { enabled: true, liffId: config.line.liffId, mock: config.line.mode === "local" && !config.isProduction };
}
