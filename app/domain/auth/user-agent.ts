/**
 * A readable device and browser from a User-Agent header, for the session list ("iPhone · Safari").
 * Deliberately small: the few platforms our members use, in the order that disambiguates them
 * (Edge and LINE's in-app browser also say "Chrome"/"Safari"; Android also says "Linux").
 */
export type DeviceSummary = {
  device: "iphone" | "ipad" | "android" | "windows" | "mac" | "linux" | "other";
  browser: "line" | "edge" | "samsung" | "firefox" | "chrome" | "safari" | "other";
  mobile: boolean;
};

export function describeUserAgent(userAgent: string | null | undefined): DeviceSummary {
  const ua = userAgent ?? "";
  const device: DeviceSummary["device"] = /iPhone|iPod/.test(ua)
    ? "iphone"
    : /iPad/.test(ua)
      ? "ipad"
      : /Android/.test(ua)
        ? "android"
        : /Windows/.test(ua)
          ? "windows"
          : /Macintosh|Mac OS X/.test(ua)
            ? "mac"
            : /Linux|X11|CrOS/.test(ua)
              ? "linux"
              : "other";
  const browser: DeviceSummary["browser"] = /\bLine\//.test(ua)
    ? "line"
    : /Edg(e|A|iOS)?\//.test(ua)
      ? "edge"
      : /SamsungBrowser\//.test(ua)
        ? "samsung"
        : /Firefox\/|FxiOS\//.test(ua)
          ? "firefox"
          : /Chrome\/|CriOS\/|Chromium\//.test(ua)
            ? "chrome"
            : /Safari\//.test(ua)
              ? "safari"
              : "other";
  return { device, browser, mobile: device === "iphone" || device === "android" || /Mobile/.test(ua) };
}
