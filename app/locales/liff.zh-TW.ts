/**
 * What the LINE features inside LINE say (LIFF: share, home-screen shortcut, send a coupon to a chat). Not in the
 * shell catalog: the LIFF features chunk, loaded only inside LINE, carries these itself (ADR 035), so the pages
 * other visitors get stay as they were. zh-TW is the source.
 */
export const liffZhTW = {
  "liff.share.button": "分享給好友",
  "liff.share.done": "已分享給好友",
  "liff.share.storeCta": "查看門市",
  "liff.share.materialCta": "查看建材",
  "liff.share.invite": "邀請好友",
  "liff.share.inviteCta": "加入會員",
  "liff.share.altText": "漢生活｜{name}",

  "liff.shortcut.button": "將會員卡加入主畫面",
  "liff.shortcut.hint": "之後從手機主畫面一點就能出示會員卡。",
  "liff.shortcut.done": "請依照畫面指示，完成加入主畫面",

  "liff.send.button": "傳送到這個聊天室",
  "liff.send.hint": "只傳送優惠券名稱與使用期限，不含兌換碼；優惠券仍只能由您本人使用。",
  "liff.send.busy": "正在傳送…",
  "liff.send.done": "已傳送到聊天室",

  "liff.coupon.label": "漢生活會員優惠券",
  "liff.coupon.altText": "漢生活優惠券：{reward}",
  "liff.coupon.note": "優惠券限會員本人於門市出示使用。",
  "liff.coupon.cta": "查看優惠券",

  "liff.error.updateLine": "請將 LINE 更新至 12.0.1 以上版本",
  "liff.error.versionTooOld": "您的 LINE 版本不支援這項功能，請更新 LINE 後再試一次。",
  "liff.error.notAllowed": "這項功能目前無法在 LINE 中使用。",
  "liff.error.declined": "您沒有同意授權，所以沒有傳送。",
  "liff.error.login": "LINE 的登入狀態已失效，請關閉此頁面後重新開啟。",
  "liff.error.context": "無法取得 LINE 的聊天室資訊，請關閉此頁面後重新開啟。",
  "liff.error.invalidUrl": "這個連結無法加入主畫面。",
  "liff.error.shortcutNotAllowed": "這個版本的 LINE 不允許建立這種捷徑。",
  "liff.error.shareTimeout": "分享等候超過 10 分鐘，已自動取消，請再試一次。",
  "liff.error.shareFailed": "分享沒有完成（{description}），請再試一次。",
  "liff.error.popupBlocked": "無法開啟 LINE 的分享畫面，請允許彈出視窗後再試一次。",
  "liff.error.rateLimited": "操作太頻繁了，請稍後再試。",
  "liff.error.network": "網路連線不穩定，請稍後再試。",
  "liff.error.generic": "LINE 沒有完成這個動作，請稍後再試。",
} as const;
