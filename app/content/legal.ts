import type { Locale } from "~/lib/i18n";

/** Versions are stored with each member's consent (個資法 §8): change them when the text changes. */
export const PRIVACY_VERSION = "2026-11-01";
export const TERMS_VERSION = "2026-11-01";

export type LegalSection = { heading: string; paragraphs: string[] };
export type LegalDocument = { updated: string; intro: string; sections: LegalSection[] };

export const privacyNotice: Record<Locale, LegalDocument> = {
  "zh-TW": {
    updated: "最後更新：2026 年 11 月 1 日",
    intro:
      "漢生活集團（以下稱「本公司」）依個人資料保護法第 8 條，於蒐集您的個人資料前告知下列事項。請您詳閱；加入會員即表示您已瞭解本告知內容。",
    sections: [
      {
        heading: "一、蒐集目的",
        paragraphs: [
          "會員管理與服務（〇五二 法人或團體對股東、會員之內部管理）、行銷（〇四〇）、消費者、客戶管理與服務（〇九〇）、契約或類似契約關係之管理（〇六九）及統計分析（一五七）。",
        ],
      },
      {
        heading: "二、個人資料類別",
        paragraphs: [
          "辨識個人者（姓名、手機號碼、電子郵件、地址、LINE 使用者識別碼）、個人描述（性別、生日）、財務細節（消費紀錄、點數、統一編號與電子發票載具）。",
        ],
      },
      {
        heading: "三、利用期間、地區、對象及方式",
        paragraphs: [
          "期間：會員資格存續期間，及依法令或契約所需保存之期間。地區：中華民國境內及本公司系統所在地。對象：本公司及受本公司委託處理會員服務之廠商（如簡訊、電子郵件服務商）。方式：以自動化或非自動化方式，於蒐集目的範圍內利用。",
        ],
      },
      {
        heading: "四、您的權利",
        paragraphs: [
          "您可隨時查詢、閱覽、請求製給複製本、補充或更正、請求停止蒐集、處理或利用，以及請求刪除您的個人資料。您可於會員中心下載您的資料或刪除帳號，或與本公司門市聯絡。",
        ],
      },
      {
        heading: "五、不提供資料之影響",
        paragraphs: [
          "手機號碼為必填，若未提供將無法完成會員註冊；其他選填資料不影響會員資格，但可能無法享有部分服務。",
        ],
      },
      {
        heading: "六、行銷訊息",
        paragraphs: ["簡訊、電子郵件與 LINE 行銷訊息僅於您個別同意後寄送，您可隨時於會員中心取消。"],
      },
    ],
  },
  en: {
    updated: "Last updated: 1 November 2026",
    intro:
      "Han Living Group (“we”) gives you this notice under Article 8 of Taiwan's Personal Data Protection Act before we collect your personal data. By joining as a member you confirm that you have read it.",
    sections: [
      {
        heading: "1. Why we collect data",
        paragraphs: [
          "Membership management and service, marketing, customer management and service, contract management, and statistical analysis.",
        ],
      },
      {
        heading: "2. What we collect",
        paragraphs: [
          "Identifiers (name, mobile number, e-mail, address, LINE user id), personal details (gender, birthday), and financial details (purchases, points, tax id number and e-invoice carrier).",
        ],
      },
      {
        heading: "3. How long, where, by whom and how",
        paragraphs: [
          "For as long as you are a member and for any period the law or a contract requires; in Taiwan and where our systems are hosted; by us and the service providers we appoint for member services (such as text message and e-mail providers); by automated and manual means, only for the purposes above.",
        ],
      },
      {
        heading: "4. Your rights",
        paragraphs: [
          "You may at any time ask to see, copy, complete or correct your data, ask us to stop collecting, processing or using it, or ask us to delete it. You can download your data or delete your account in the member center, or contact any showroom.",
        ],
      },
      {
        heading: "5. If you do not provide data",
        paragraphs: [
          "A mobile number is required to join. Other fields are optional; leaving them out does not affect membership but some services may not be available.",
        ],
      },
      {
        heading: "6. Marketing messages",
        paragraphs: [
          "We send marketing by text message, e-mail or LINE only with your consent for that channel, which you can withdraw at any time in the member center.",
        ],
      },
    ],
  },
};

export const membershipTerms: Record<Locale, LegalDocument> = {
  "zh-TW": {
    updated: "最後更新：2026 年 11 月 1 日",
    intro: "歡迎加入漢生活會員。完成註冊即表示您同意以下條款。",
    sections: [
      {
        heading: "一、會員資格",
        paragraphs: ["以一個手機號碼註冊一個會員帳號。會員資料應真實正確，帳號僅限本人使用，不得轉讓或出借。"],
      },
      {
        heading: "二、點數",
        paragraphs: [
          "消費累積點數之規則、等級與兌換內容以會員中心公告為準。點數於取得年度之次年 12 月 31 日（台北時間）到期，不得兌換現金、轉讓或合併。",
        ],
      },
      {
        heading: "三、優惠券",
        paragraphs: ["優惠券限使用一次，須於有效期限內於指定門市使用。退貨時，依原交易所獲點數將一併扣回。"],
      },
      {
        heading: "四、帳號安全",
        paragraphs: ["請妥善保管密碼與驗證碼，本公司人員不會向您索取。若發現帳號遭冒用，請立即變更密碼並通知本公司。"],
      },
      {
        heading: "五、條款變更",
        paragraphs: ["本公司得修改本條款，修改後將於網站公告，重大變更將另行通知會員。"],
      },
    ],
  },
  en: {
    updated: "Last updated: 1 November 2026",
    intro: "Welcome to Han Living membership. By completing sign-up you agree to these terms.",
    sections: [
      {
        heading: "1. Membership",
        paragraphs: [
          "One mobile number registers one member account. Your details must be true and correct; the account is personal and may not be transferred or lent.",
        ],
      },
      {
        heading: "2. Points",
        paragraphs: [
          "The rules for earning points, tiers and rewards are those published in the member center. Points expire on 31 December (Taipei time) of the year after they were earned and cannot be exchanged for cash, transferred or merged.",
        ],
      },
      {
        heading: "3. Coupons",
        paragraphs: [
          "A coupon can be used once, within its validity, at the showrooms it names. When a purchase is refunded, the points it earned are taken back.",
        ],
      },
      {
        heading: "4. Account security",
        paragraphs: [
          "Keep your password and codes to yourself; our staff will never ask for them. If you suspect misuse, change your password at once and tell us.",
        ],
      },
      {
        heading: "5. Changes",
        paragraphs: [
          "We may change these terms; changes are published on this site, and members are told of material changes.",
        ],
      },
    ],
  },
};
