import type { liffZhTW } from "./liff.zh-TW";

export const liffEn = {
  "liff.share.button": "Share with friends",
  "liff.share.done": "Shared with your friends",
  "liff.share.storeCta": "View showroom",
  "liff.share.materialCta": "View material",
  "liff.share.invite": "Invitation",
  "liff.share.inviteCta": "Join",
  "liff.share.altText": "Han Living | {name}",

  "liff.shortcut.button": "Add my member card to the home screen",
  "liff.shortcut.hint": "Then one tap on your home screen shows your member card.",
  "liff.shortcut.done": "Follow the steps on screen to finish adding it to your home screen",

  "liff.send.button": "Send to this chat",
  "liff.send.hint": "Sends only the coupon's name and expiry date, never its code; only you can use the coupon.",
  "liff.send.busy": "Sending…",
  "liff.send.done": "Sent to the chat",

  "liff.coupon.label": "Han Living member coupon",
  "liff.coupon.altText": "Han Living coupon: {reward}",
  "liff.coupon.note": "Only the member it belongs to can use it, shown at a showroom.",
  "liff.coupon.cta": "View coupon",

  "liff.error.updateLine": "Please update LINE to 12.0.1 or later",
  "liff.error.versionTooOld": "Your version of LINE cannot do this. Please update LINE and try again.",
  "liff.error.notAllowed": "This feature is not available in LINE right now.",
  "liff.error.declined": "You did not allow it, so nothing was sent.",
  "liff.error.login": "Your LINE session has ended. Please close this page and open it again.",
  "liff.error.context": "LINE did not tell us which chat this is. Please close this page and open it again.",
  "liff.error.invalidUrl": "This link cannot be added to the home screen.",
  "liff.error.shortcutNotAllowed": "This version of LINE does not allow this kind of shortcut.",
  "liff.error.shareTimeout": "Sharing waited more than 10 minutes and was cancelled. Please try again.",
  "liff.error.shareFailed": "Sharing did not finish ({description}). Please try again.",
  "liff.error.popupBlocked": "LINE's share screen could not open. Please allow pop-ups and try again.",
  "liff.error.rateLimited": "That was a lot in a short time. Please try again in a moment.",
  "liff.error.network": "The connection is unstable. Please try again in a moment.",
  "liff.error.generic": "LINE could not finish this. Please try again later.",
} as const satisfies Record<keyof typeof liffZhTW, string>;
