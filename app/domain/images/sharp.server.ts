import { onFirstUse } from "@platform/deferred-modules";

/**
 * sharp, loaded on first use: importing it loads libvips, about a tenth of a second that every start paid
 * before, while only an upload (or a test hook making a photo) needs it (ADR 030, cold start).
 */
export const loadSharp = onFirstUse(() => import("sharp").then((module) => module.default));
