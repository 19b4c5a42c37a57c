/** Business constants from PRODUCT.md §10, in one place. */
export const TIME_ZONE = "Asia/Taipei";
export const DEFAULT_LOCALE = "zh-TW";
/** How often the page asks whether a new build is live. */
export const BUILD_CHECK_INTERVAL_MS = 60 * 60 * 1000;
/** A failed code chunk reloads the page at most once in this window. */
export const CHUNK_RELOAD_GUARD_MS = 10 * 1000;
/** The loading overlay appears only when a navigation takes longer than this. */
export const LOADING_OVERLAY_DELAY_MS = 300;
export const DEFAULT_MEMBER_LEVEL = "basic";
export const DEFAULT_GENDER = "male";
export const DEFAULT_DISABLED = false;
/** The brand as members know it; text messages start with it in 【】 (PRODUCT.md §3). */
export const BRAND_NAME = "漢生活";
