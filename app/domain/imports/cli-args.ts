import { type ParseArgsConfig, parseArgs } from "node:util";
import { z } from "zod";
import { CSV_TARGETS, type CsvMapping, type CsvTarget, IMPORT_PROBLEM_CODES, type ImportProblemCode } from "./record";

/**
 * The arguments of `npm run import:firebase` and `npm run import:csv` (ADR 038, docs/operations.md "Moving from
 * another system"): read with node's parseArgs (unknown options refused), then checked with Zod. A mistake is one
 * line naming the option, and the usage; nothing is opened before the arguments are right.
 */

export const FIREBASE_USAGE =
  "usage: npm run import:firebase -- --auth users.json --members memberList.json [--hash-config hash.json] [--source firebase] [--sample <phone-or-email>:<password>] [--welcome] [--evaluate-tiers] [--dry-run]";
export const CSV_USAGE =
  "usage: npm run import:csv -- --file members.csv --source <label, e.g. shopline> [--map header=target,…] [--encoding utf-8|big5] [--welcome] [--evaluate-tiers] [--dry-run]";

export type ImportCliCommon = {
  source: string;
  welcome: boolean;
  evaluateTiers: boolean;
  dryRun: boolean;
};

export type FirebaseCliArgs = ImportCliCommon & {
  kind: "firebase";
  auth: string;
  members: string;
  hashConfig: string | null;
  sample: { identifier: string; password: string } | null;
};

export type CsvCliArgs = ImportCliCommon & {
  kind: "csv";
  file: string;
  /** The admin's mapping (header → target); null: the guess from the headers. */
  map: CsvMapping | null;
  encoding: "utf-8" | "big5" | undefined;
};

export type ParsedCliArgs<T> = { ok: true; args: T } | { ok: false; message: string };

/** A source label: what the rows' old ids are keyed by (the same system → the same label, on every run). */
const sourceLabel = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, "--source: lower-case letters, digits, - and _ (up to 40), e.g. shopline");

const flags = {
  welcome: { type: "boolean", default: false },
  "evaluate-tiers": { type: "boolean", default: false },
  "dry-run": { type: "boolean", default: false },
  help: { type: "boolean", default: false },
} as const;

type ArgValues = Record<string, string | boolean | undefined>;

/**
 * The command's options read (its own and the common flags); a mistake or `--help` is the answer with the usage.
 * Node's messages name the option ("Unknown option '--foo'", "Option '--file <value>' argument missing").
 */
function parse(
  argv: string[],
  options: NonNullable<ParseArgsConfig["options"]>,
  usage: string,
): { ok: true; values: ArgValues } | { ok: false; message: string } {
  let values: ArgValues;
  try {
    ({ values } = parseArgs({ args: argv, options: { ...options, ...flags }, strict: true, allowPositionals: false }));
  } catch (error) {
    const line = error instanceof Error ? (error.message.split("\n")[0] ?? error.message) : String(error);
    return { ok: false, message: `${line}\n${usage}` };
  }
  if (values.help) return { ok: false, message: usage };
  return { ok: true, values };
}

/** The flags both commands take, as the arguments hold them. */
function commonFlags(v: ArgValues): Pick<ImportCliCommon, "welcome" | "evaluateTiers" | "dryRun"> {
  return { welcome: v.welcome === true, evaluateTiers: v["evaluate-tiers"] === true, dryRun: v["dry-run"] === true };
}

function firstIssue(error: z.ZodError): string {
  return error.issues[0]?.message ?? "invalid arguments";
}

const path = (option: string) => z.string({ error: `--${option} is required` }).min(1, `--${option} is required`);

export function parseFirebaseArgs(argv: string[]): ParsedCliArgs<FirebaseCliArgs> {
  const parsed = parse(
    argv,
    {
      auth: { type: "string" },
      members: { type: "string" },
      "hash-config": { type: "string" },
      source: { type: "string", default: "firebase" },
      sample: { type: "string" },
    },
    FIREBASE_USAGE,
  );
  if (!parsed.ok) return parsed;
  const v = parsed.values;
  const schema = z.object({
    auth: path("auth"),
    members: path("members"),
    hashConfig: z.string().min(1, "--hash-config: a file name").nullable(),
    source: sourceLabel,
    sample: z
      .string()
      .regex(/^[^:]+:.+$/, "--sample: <phone-or-email>:<password>, e.g. 0912345678:their-old-password")
      .transform((s) => {
        const at = s.indexOf(":");
        return { identifier: s.slice(0, at).trim(), password: s.slice(at + 1) };
      })
      .nullable(),
  });
  const result = schema.safeParse({
    auth: v.auth,
    members: v.members,
    hashConfig: v["hash-config"] ?? null,
    source: v.source,
    sample: v.sample ?? null,
  });
  if (!result.success) return { ok: false, message: `${firstIssue(result.error)}\n${FIREBASE_USAGE}` };
  if (result.data.sample && !result.data.hashConfig) {
    return { ok: false, message: `--sample checks the passwords against --hash-config: give both\n${FIREBASE_USAGE}` };
  }
  return {
    ok: true,
    args: {
      kind: "firebase",
      ...result.data,
      ...commonFlags(v),
    },
  };
}

/**
 * `--map 手機=phoneNumber,姓名=nameZh,備註=ignore`: a header may itself hold `=` (the target is after the last one);
 * every target but `ignore` at most once.
 */
export function parseMapOption(text: string): { ok: true; mapping: CsvMapping } | { ok: false; message: string } {
  const targets = new Set<string>([...CSV_TARGETS, "ignore"]);
  const mapping: CsvMapping = {};
  const used = new Map<CsvTarget, string>();
  for (const pair of text.split(",")) {
    if (pair.trim() === "") continue;
    const at = pair.lastIndexOf("=");
    const header = at > 0 ? pair.slice(0, at).trim() : "";
    const target = at > 0 ? pair.slice(at + 1).trim() : "";
    if (!header || !target) return { ok: false, message: `--map: "${pair}" is not header=target` };
    if (!targets.has(target)) {
      return { ok: false, message: `--map: "${target}" is not a target (one of: ${[...targets].join(", ")})` };
    }
    if (header in mapping) return { ok: false, message: `--map: the column "${header}" is mapped twice` };
    if (target !== "ignore") {
      const earlier = used.get(target as CsvTarget);
      if (earlier) return { ok: false, message: `--map: "${target}" is given to both "${earlier}" and "${header}"` };
      used.set(target as CsvTarget, header);
    }
    mapping[header] = target as CsvTarget | "ignore";
  }
  if (Object.keys(mapping).length === 0) return { ok: false, message: "--map: no header=target pair" };
  return { ok: true, mapping };
}

export function parseCsvArgs(argv: string[]): ParsedCliArgs<CsvCliArgs> {
  const parsed = parse(
    argv,
    { file: { type: "string" }, source: { type: "string" }, map: { type: "string" }, encoding: { type: "string" } },
    CSV_USAGE,
  );
  if (!parsed.ok) return parsed;
  const v = parsed.values;
  const schema = z.object({
    file: path("file"),
    source: z
      .string({ error: "--source is required (the system the file comes from, e.g. shopline)" })
      .pipe(sourceLabel),
    encoding: z.preprocess(
      (e) =>
        typeof e === "string" ? (({ utf8: "utf-8" } as Record<string, string>)[e.toLowerCase()] ?? e.toLowerCase()) : e,
      z.enum(["utf-8", "big5"], { error: "--encoding: utf-8 or big5 (leave it out to detect)" }).optional(),
    ),
  });
  const result = schema.safeParse({ file: v.file, source: v.source, encoding: v.encoding });
  if (!result.success) return { ok: false, message: `${firstIssue(result.error)}\n${CSV_USAGE}` };
  let map: CsvMapping | null = null;
  if (typeof v.map === "string") {
    const mapped = parseMapOption(v.map);
    if (!mapped.ok) return { ok: false, message: `${mapped.message}\n${CSV_USAGE}` };
    map = mapped.mapping;
  }
  return {
    ok: true,
    args: {
      kind: "csv",
      file: result.data.file,
      source: result.data.source,
      encoding: result.data.encoding,
      map,
      ...commonFlags(v),
    },
  };
}

/** The mapping as one line (`手機=phoneNumber, 姓名=nameZh, …`), as `--map` takes it back. */
export function formatMapping(mapping: CsvMapping): string {
  return Object.entries(mapping)
    .map(([header, target]) => `${header}=${target}`)
    .join(",");
}

/** The problems in words, for the command line's report (the console words them from its catalog). */
export const PROBLEM_WORDS: Record<ImportProblemCode, string> = {
  phone_missing: "no phone number",
  phone_invalid: "the phone is not a Taiwan mobile number",
  email_invalid: "the e-mail address is not valid",
  name_missing: "no name",
  tax_id_invalid: "the 統一編號 is not valid",
  carrier_invalid: "the 手機條碼 (e-invoice carrier) is not valid",
  birthday_invalid: "the birthday is not a date",
  gender_unknown: "the gender is not one we know (kept as extra)",
  tier_unknown: "the tier is not basic, silver or gold",
  points_invalid: "the points are negative or not a whole number",
  expiry_invalid: "the points' expiry is not a date",
  expiry_past: "the points' expiry has passed: booked and expired at once",
  consent_invalid: "a consent without its date or channel (not imported)",
  external_id_missing: "no old member id",
  duplicate_in_file: "the same phone or old id as an earlier row of the file",
  phone_taken: "the phone belongs to another member than the one the e-mail found",
  email_taken: "the e-mail belongs to another member",
  line_taken: "the LINE id is linked to another member (not linked)",
  auth_user_missing: "the member's auth user is not in users.json (no password, no LINE)",
  password_unreadable: "the password hash cannot be read: the member claims the account by SMS code",
  not_an_object: "the record is not an object",
};

/** `problems` of a report in a stable order (the order of the codes), for printing. */
export function problemLines(problems: Partial<Record<ImportProblemCode, number>>): string[] {
  return IMPORT_PROBLEM_CODES.filter((code) => (problems[code] ?? 0) > 0).map(
    (code) => `  ${code.padEnd(20)} ${String(problems[code]).padStart(9)}  ${PROBLEM_WORDS[code]}`,
  );
}
