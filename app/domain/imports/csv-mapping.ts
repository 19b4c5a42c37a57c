/**
 * A CSV row of another CRM (SHOPLINE, CYBERBIZ, 91APP, a POS vendor) → ImportRecord (issue 35). Pure and
 * client-safe (the console can guess a mapping in the browser); the streaming part is read-csv.ts, which
 * re-exports these two.
 */
import { isValidEinvoiceCarrier, isValidTaxIdNumber, normalizeTaiwanMobile } from "~/domain/members/taiwan";
import {
  CSV_TARGETS,
  type CsvMapping,
  type CsvTarget,
  emptyRecord,
  type ImportConsent,
  type ImportConsentKind,
  type ImportProblem,
  type ImportProblemCode,
  type ReadResult,
} from "./record";
import {
  cleanCell,
  parseBirthday,
  parseEmail,
  parseFlag,
  parseGender,
  parseInstant,
  parseTier,
  readPointsBalance,
} from "./values";

/** A header, compared: lowercased, without spaces, punctuation and a trailing "(必填)" style remark. */
export function headerKey(header: string): string {
  return header
    .replace(/\uFEFF/g, "")
    .toLowerCase()
    .replace(/[（(【[].*?[)）】\]]/g, "")
    .replace(/[\s_\-.:：/、*＊]/g, "");
}

/** A header with one of these words holds a date: only a date target takes it by a partial match. */
const DATE_WORDS = /日期|到期|時間|date|expir|time/;
const DATE_TARGETS = new Set<CsvTarget>(["birthday", "pointsLastDay", "consentDate"]);

type Rule = { target: CsvTarget; exact: string[]; contains?: RegExp; weight: number };

/**
 * Ordered by how specific a word is: a header takes its highest-weight rule ("點數到期日" is an expiry, not
 * points); an exact synonym beats a partial one.
 */
const RULES: Rule[] = [
  {
    target: "consentDate",
    exact: [
      "同意日期",
      "同意時間",
      "訂閱日期",
      "訂閱時間",
      "行銷同意日期",
      "consentdate",
      "consentedat",
      "optindate",
      "optinat",
    ],
    contains: /(同意|訂閱).*(日期|時間)|consent.*(date|at|time)|optin.*(date|time)/,
    weight: 90,
  },
  {
    target: "consentChannel",
    exact: [
      "同意管道",
      "同意來源",
      "訂閱管道",
      "訂閱來源",
      "consentchannel",
      "consentsource",
      "optinchannel",
      "optinsource",
    ],
    contains: /(同意|訂閱).*(管道|來源|渠道)|consent.*(channel|source)|optin.*(channel|source)/,
    weight: 90,
  },
  {
    target: "marketingSms",
    exact: [
      "行銷簡訊",
      "簡訊行銷",
      "接收簡訊",
      "簡訊訂閱",
      "訂閱簡訊",
      "同意簡訊",
      "smsmarketing",
      "acceptssmsmarketing",
      "smsoptin",
      "smssubscription",
    ],
    contains: /簡訊|sms/,
    weight: 80,
  },
  {
    target: "marketingEmail",
    exact: [
      "電子報",
      "訂閱電子報",
      "行銷郵件",
      "郵件行銷",
      "emailmarketing",
      "acceptsemailmarketing",
      "acceptsmarketing",
      "newsletter",
      "emailoptin",
      "emailsubscription",
    ],
    contains:
      /電子報|newsletter|(email|郵件|信箱).*(行銷|訂閱|同意|marketing|optin|subscri)|(行銷|訂閱|同意|marketing|accepts).*(email|郵件|信箱)/,
    weight: 80,
  },
  {
    target: "marketingLine",
    exact: ["line行銷", "line訂閱", "linemarketing", "acceptslinemarketing", "lineoptin"],
    contains: /line.*(行銷|訂閱|同意|marketing|optin)|(行銷|訂閱|同意|marketing).*line/,
    weight: 80,
  },
  {
    target: "pointsLastDay",
    exact: [
      "點數到期日",
      "點數有效期限",
      "點數到期",
      "到期日",
      "有效期限",
      "紅利到期日",
      "pointsexpiry",
      "pointsexpiresat",
      "pointsexpirydate",
      "expirydate",
      "expiresat",
      "expirationdate",
      "expiry",
    ],
    contains:
      /(點數|紅利|積分|point).*(到期|有效期|expir)|(到期|有效期|expir).*(點數|紅利|積分|point)|^(到期|有效期|expir)/,
    weight: 70,
  },
  {
    target: "points",
    exact: [
      "點數",
      "剩餘點數",
      "目前點數",
      "可用點數",
      "點數餘額",
      "紅利點數",
      "紅利",
      "積分",
      "會員點數",
      "points",
      "point",
      "pointbalance",
      "pointsbalance",
      "balance",
      "rewardpoints",
      "loyaltypoints",
    ],
    contains: /點數|紅利|積分|points?/,
    weight: 60,
  },
  {
    target: "taxIdNumber",
    exact: ["統一編號", "統編", "公司統編", "發票統編", "taxid", "taxidnumber", "vatnumber", "businessnumber", "ubn"],
    contains: /統編|統一編號|taxid/,
    weight: 60,
  },
  {
    target: "companyName",
    exact: ["公司名稱", "公司", "公司抬頭", "發票抬頭", "抬頭", "company", "companyname"],
    contains: /公司|抬頭|company/,
    weight: 55,
  },
  {
    target: "einvoiceCarrier",
    exact: ["載具", "手機載具", "手機條碼", "載具號碼", "電子發票載具", "carrier", "einvoicecarrier", "mobilebarcode"],
    contains: /載具|條碼|carrier|barcode/,
    weight: 65,
  },
  {
    target: "birthday",
    exact: ["生日", "出生日期", "生日日期", "出生年月日", "birthday", "birthdate", "dateofbirth", "dob"],
    contains: /生日|出生|birth/,
    weight: 50,
  },
  {
    target: "gender",
    exact: ["性別", "gender", "sex"],
    contains: /性別|gender/,
    weight: 50,
  },
  {
    target: "tier",
    exact: [
      "等級",
      "會員等級",
      "會員級別",
      "級別",
      "會員卡別",
      "卡別",
      "tier",
      "level",
      "memberlevel",
      "membershiptier",
      "membershiplevel",
      "customertier",
    ],
    contains: /等級|級別|卡別|tier|level/,
    weight: 50,
  },
  {
    target: "email",
    exact: ["電子郵件", "電子信箱", "電子郵件地址", "信箱", "郵件", "email", "mail", "emailaddress"],
    contains: /email|郵件|信箱/,
    weight: 45,
  },
  {
    target: "phoneNumber",
    exact: [
      "手機",
      "手機號碼",
      "行動電話",
      "手機電話",
      "行動電話號碼",
      "mobile",
      "mobilephone",
      "mobilenumber",
      "mobilephonenumber",
      "cellphone",
    ],
    contains: /手機|行動電話|mobile|cell/,
    weight: 48,
  },
  {
    // Lower than the mobile words: a file with both 電話 and 手機 maps 手機.
    target: "phoneNumber",
    exact: ["電話", "電話號碼", "聯絡電話", "phone", "phonenumber", "tel", "telephone"],
    contains: /電話|phone/,
    weight: 40,
  },
  {
    target: "externalId",
    exact: [
      "會員編號",
      "會員id",
      "會員代號",
      "會員號碼",
      "會員卡號",
      "客戶編號",
      "顧客編號",
      "編號",
      "memberid",
      "memberno",
      "membernumber",
      "customerid",
      "customerno",
      "customernumber",
      "userid",
      "id",
    ],
    contains: /會員編號|會員卡號|客戶編號|顧客編號|memberid|customerid/,
    weight: 40,
  },
  {
    target: "nameZh",
    exact: [
      "姓名",
      "會員姓名",
      "顧客姓名",
      "客戶姓名",
      "名字",
      "名稱",
      "name",
      "fullname",
      "customername",
      "membername",
    ],
    contains: /姓名|name/,
    weight: 30,
  },
];

/**
 * A guess of the mapping from the headers: each header gets its best-matching target, each target goes to
 * the best-scoring header (exact synonym first); everything else is "ignore" (kept in extra).
 */
export function guessMapping(headers: string[]): CsvMapping {
  const candidates: { header: string; target: CsvTarget; score: number; index: number }[] = [];
  headers.forEach((header, index) => {
    const key = headerKey(header);
    if (!key) return;
    let best: { target: CsvTarget; score: number } | null = null;
    for (const rule of RULES) {
      const partial = rule.contains?.test(key) && (DATE_TARGETS.has(rule.target) || !DATE_WORDS.test(key));
      const score = rule.exact.includes(key) ? 100 + rule.weight : partial ? rule.weight : 0;
      if (score > 0 && (!best || score > best.score)) best = { target: rule.target, score };
    }
    if (best) candidates.push({ header, index, ...best });
  });
  candidates.sort((a, b) => b.score - a.score || a.index - b.index);
  const mapping: CsvMapping = {};
  for (const header of headers) mapping[header] = "ignore";
  const taken = new Set<CsvTarget>();
  for (const c of candidates) {
    if (taken.has(c.target)) continue;
    taken.add(c.target);
    mapping[c.header] = c.target;
  }
  return mapping;
}

const CONSENT_TARGETS: Partial<Record<CsvTarget, ImportConsentKind>> = {
  marketingSms: "marketing_sms",
  marketingEmail: "marketing_email",
  marketingLine: "marketing_line",
};

/** A channel when the file has a consent date but no channel column. */
export const DEFAULT_CONSENT_CHANNEL = "import";

/**
 * One CSV row through the mapping → record and problems. Rejects: phone missing or invalid, tier unknown,
 * points negative/fractional/unreadable, expiry unreadable. Notes (the value is left out of the record and
 * kept in extra under its header): e-mail, 統編, carrier, birthday, gender unreadable; a consent without a
 * date or with an unreadable flag; an expiry in the past (booked and expired at once).
 */
export function readCsvRow(
  cells: Record<string, string>,
  mapping: CsvMapping,
  line: number,
  now: Date = new Date(),
): ReadResult {
  const problems: ImportProblem[] = [];
  const problem = (field: string, code: ImportProblemCode, severity: "reject" | "note" = "note") =>
    problems.push({ field, code, severity });

  const byTarget = new Map<CsvTarget, { header: string; value: string }>();
  const extra: Record<string, unknown> = {};
  for (const [header, raw] of Object.entries(cells)) {
    const target = mapping[header];
    const value = cleanCell(raw);
    if (target && target !== "ignore" && (CSV_TARGETS as readonly string[]).includes(target)) {
      if (!byTarget.has(target)) {
        byTarget.set(target, { header, value });
        continue;
      }
    }
    if (value) extra[header] = raw;
  }
  const cell = (target: CsvTarget) => byTarget.get(target)?.value ?? "";
  const keep = (target: CsvTarget) => {
    const c = byTarget.get(target);
    if (c?.value) extra[c.header] = cells[c.header];
  };

  // Phone (the key of a member here).
  let phone: string | null = null;
  const phoneText = cell("phoneNumber");
  if (!phoneText) problem("phoneNumber", "phone_missing", "reject");
  else {
    // A spreadsheet that took the number for a number dropped its leading 0.
    const digits = phoneText.replace(/[\s\-().]/g, "");
    phone = normalizeTaiwanMobile(/^9\d{8}$/.test(digits) ? `0${digits}` : phoneText);
    if (!phone) problem("phoneNumber", "phone_invalid", "reject");
  }

  const externalId = cell("externalId") || phone || `line:${line}`;
  const record = emptyRecord(externalId);
  record.phoneNumber = phone;
  record.nameZh = cell("nameZh") || null;
  record.companyName = cell("companyName") || null;

  const email = parseEmail(cell("email"));
  if (email?.ok) record.email = email.value;
  else if (email) {
    problem("email", "email_invalid");
    keep("email");
  }

  const birthday = parseBirthday(cell("birthday"), now);
  if (birthday?.ok) record.birthday = birthday.value;
  else if (birthday) {
    problem("birthday", "birthday_invalid");
    keep("birthday");
  }

  const gender = parseGender(cell("gender"));
  if (gender?.ok) record.gender = gender.value;
  else if (gender) {
    problem("gender", "gender_unknown");
    keep("gender");
  }

  const tier = parseTier(cell("tier"));
  if (tier?.ok) record.tier = tier.value;
  else if (tier) problem("tier", "tier_unknown", "reject");

  readPointsBalance(record, problem, cell("points"), cell("pointsLastDay"), now);

  const taxId = cell("taxIdNumber").replace(/\s/g, "");
  if (taxId) {
    if (isValidTaxIdNumber(taxId)) record.taxIdNumber = taxId;
    else {
      problem("taxIdNumber", "tax_id_invalid");
      keep("taxIdNumber");
    }
  }

  const carrier = cell("einvoiceCarrier").replace(/\s/g, "").toUpperCase();
  if (carrier) {
    if (isValidEinvoiceCarrier(carrier)) record.einvoiceCarrier = carrier;
    else {
      problem("einvoiceCarrier", "carrier_invalid");
      keep("einvoiceCarrier");
    }
  }

  // Consents: only with the date the old system recorded (個資法: none invented).
  const consentDateText = cell("consentDate");
  const consentAt = consentDateText ? parseInstant(consentDateText) : null;
  const channel = cell("consentChannel") || DEFAULT_CONSENT_CHANNEL;
  for (const [target, kind] of Object.entries(CONSENT_TARGETS) as [CsvTarget, ImportConsentKind][]) {
    const flag = parseFlag(cell(target));
    if (!flag) continue;
    if (!flag.ok || !consentAt) {
      problem(target, "consent_invalid");
      keep(target);
      continue;
    }
    const consent: ImportConsent = { kind, granted: flag.value, at: consentAt, channel };
    record.consents.push(consent);
  }
  if (record.consents.length === 0) {
    keep("consentDate");
    if (byTarget.has("consentChannel")) keep("consentChannel");
  }

  record.extra = extra;
  return { record, problems };
}
