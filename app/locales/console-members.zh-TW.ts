/** The console's member pages, issue 15's last items (ADR 024 addendum): part of the route-only `console.` namespace. */
export const consoleMembersZhTW = {
  "console.members.backToMember": "回到會員資料",
  "console.members.lastStore": "最後消費門市",
  "console.members.error.store": "請選擇您負責的門市",
  "console.members.pendingEmail": "待驗證的 E-mail",
  "console.members.resendVerification": "重寄 E-mail 驗證碼",
  "console.members.verificationSent":
    "已寄出新的驗證碼到會員待驗證的 E-mail（{minutes} 分鐘內有效），會員在會員中心輸入後即完成驗證。",
  "console.members.error.not_pending": "這位會員沒有待驗證的 E-mail",
} as const;
