/** LINE login, LIFF and linked logins (zh-TW is the source). `notice.*` keys are toasts (root catalog). */
export const lineZhTW = {
  "notice.lineSignupFailed": "LINE 註冊失敗，請再試一次",
  "notice.lineNoIdToken": "lineLiffIdToken 不存在",
  "notice.lineLinked": "已連結 LINE 帳號",
  "notice.lineUnlinked": "已取消連結 LINE 帳號",
  "notice.lineLinkFailed": "LINE 帳號連結失敗，請再試一次",
  "notice.lineLinkTaken": "這個 LINE 帳號已連結其他會員",

  "line.login": "LINE 登入",
  "line.signup": "使用 LINE 註冊",
  "line.or": "或",
  "line.signupOffer": "還沒有用 LINE 註冊過嗎？",

  "lineSignup.phoneTitle": "驗證手機號碼",
  "lineSignup.phoneLead": "您已使用 LINE 登入。門市以手機號碼查詢會員，請再驗證一支手機號碼。",
  "lineSignup.existingTitle": "此手機號碼已是會員",
  "lineSignup.existingBody":
    "手機號碼 {phone} 已由您驗證，並屬於既有的會員帳號。要把這個 LINE 帳號連結到該會員並登入嗎？",
  "lineSignup.linkSubmit": "連結 LINE 並登入",
  "lineSignup.useOtherPhone": "改用其他手機號碼",

  "linkedLogins.title": "登入方式",
  "linkedLogins.lead": "管理可以登入您會員帳號的方式。",
  "linkedLogins.phone": "手機號碼",
  "linkedLogins.email": "電子郵件",
  "linkedLogins.line": "LINE",
  "linkedLogins.withPassword": "搭配密碼登入",
  "linkedLogins.noPassword": "尚未設定密碼，無法以此方式登入",
  "linkedLogins.notSet": "未設定",
  "linkedLogins.lineLinked": "已連結（{date}）",
  "linkedLogins.lineNotLinked": "尚未連結",
  "linkedLogins.link": "連結 LINE",
  "linkedLogins.unlink": "取消連結",
  "linkedLogins.lastLogin": "LINE 是您目前唯一的登入方式，請先設定密碼再取消連結。",
  "linkedLogins.lineUnavailable": "目前未提供 LINE 登入。",
} as const;
