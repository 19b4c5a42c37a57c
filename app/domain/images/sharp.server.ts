import type Sharp from "sharp";

let loading: Promise<typeof Sharp> | undefined;

/**
 * sharp, loaded on first use: importing it loads libvips, about a tenth of a second that every start paid
 * before, while only an upload (or a test hook making a photo) needs it (ADR 030, cold start).
 */
export function loadSharp(): Promise<typeof Sharp> {
  loading ??= import("sharp").then((module) => module.default);
  return loading;
}
