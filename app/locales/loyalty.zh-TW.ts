/**
 * The loyalty area's refusals (app/domain/loyalty/errors.ts), for members and staff alike; the POS
 * reference page shows them too. `loyalty.error.` is a route-only namespace: pages render these on
 * the server, so the shell does not ship them. Texts know no rule: errors.ts holds this catalog to every code.
 */
export const loyaltyZhTW = {
  "loyalty.error.invalid_amount": "金額必須是 1 以上的整數（新台幣元）",
  "loyalty.error.invalid_input": "輸入內容不正確，沒有任何變更。請確認後再試一次。",
  "loyalty.error.member_not_found": "查無此會員",
  "loyalty.error.purchase_not_found": "查無此消費（或屬於其他門市）",
  "loyalty.error.reward_not_found": "找不到這項好禮，請重新整理頁面。",
  "loyalty.error.coupon_not_found": "查無此優惠券",
  "loyalty.error.receipt_conflict": "此發票號碼已以不同內容入帳",
  "loyalty.error.idempotency_conflict": "重試的內容與第一次不同",
  "loyalty.error.insufficient_points": "點數不足，無法兌換。目前可用 {balance} 點。",
  "loyalty.error.reward_unavailable": "這項好禮目前無法兌換。",
  "loyalty.error.out_of_stock": "這項好禮已兌換完畢。",
  "loyalty.error.limit_reached": "您已達到這項好禮的兌換上限。",
  "loyalty.error.coupon_used": "優惠券已使用",
  "loyalty.error.coupon_cancelled": "優惠券已取消",
  "loyalty.error.coupon_revoked": "優惠券已收回",
  "loyalty.error.member_disabled": "此會員帳號已停用",
  "loyalty.error.purchase_too_old": "購買時間超過可補登的期限，無法累積點數",
  "loyalty.error.refund_exceeds_purchase": "退貨總額超過原消費金額",
  "loyalty.error.coupon_expired": "優惠券已過期",
  "loyalty.error.coupon_wrong_store": "此優惠券不適用於本門市",
  "loyalty.error.card_token_expired": "會員卡條碼已過期，請會員重新出示",
  "loyalty.error.card_token_forged": "會員卡條碼無效",
  "loyalty.error.card_token_malformed": "會員卡條碼格式錯誤",
  // 離線會員卡（ADR 043）
  "loyalty.error.card_token_future": "會員卡條碼的時間超前，手機時間可能不正確",
  "loyalty.error.card_token_replayed": "此會員卡條碼已使用過，請會員出示下一個條碼",
  "loyalty.error.card_device_revoked": "此裝置的會員卡已移除，請會員連線後重新開啟會員卡",
  "loyalty.error.card_device_unknown": "會員卡條碼無效",
  // The clerk on the sale (ADR 042)
  "loyalty.error.staff_code_unknown": "沒有這個人員代碼，或此人員已停用、不在本門市服務",
  // Paying with points (issue 36, ADR 040)
  "loyalty.error.invalid_points": "折抵點數須為 0 以上的整數",
  "loyalty.error.points_exceed_balance": "折抵點數超過會員目前可用的點數",
  "loyalty.error.points_exceed_share": "折抵點數超過本筆消費可折抵的上限",
  "loyalty.error.spend_code_required": "未掃描會員卡，折抵點數需要會員的確認碼",
  "loyalty.error.spend_code_wrong": "確認碼不正確，請會員再看一次",
  "loyalty.error.spend_code_expired": "確認碼已過期或尚未傳送，請重新傳送",
  "loyalty.error.spend_code_mismatch": "確認碼是為另一筆金額或點數產生的，請重新傳送",
  "loyalty.error.spend_code_used": "這個確認碼已經用過了",
  "loyalty.error.spend_code_locked": "確認碼輸錯太多次，請稍後再試或掃描會員卡",
  "loyalty.error.spend_code_send_limit": "確認碼傳送次數已達上限，請稍後再試或掃描會員卡",
} as const satisfies Record<`loyalty.error.${string}`, string>;
