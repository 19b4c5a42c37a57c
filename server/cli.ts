import { loadConfig } from "@platform/config";
import { type Database, openDatabase, rowsOf } from "@platform/db/client";
import { sql } from "drizzle-orm";
import { verifyAuditLog } from "../app/domain/audit/anchor.server";
import { createFirstAdmin } from "../app/domain/staff/accounts.server";
import { StaffError } from "../app/domain/staff/errors";

/**
 * Operator commands, run from the production build (scripts/*.js) against the configured database
 * (DATABASE_URL, or the embedded one under DATA_DIR: stop the app first, PGlite has one process).
 */

export type CommandResult = { exitCode: number; output: string };

/**
 * `npm run audit:verify`: walks the audit chain and holds it against the signed head (AUDIT_ANCHOR_FILE); exit 1
 * and the first broken row, the rows cut off the end, or the rewritten row when it does not hold. When it holds,
 * the chain's end is signed.
 */
export async function auditVerifyCommand(env: NodeJS.ProcessEnv = process.env): Promise<CommandResult> {
  const config = loadConfig(env);
  const database = await openDatabase(config.database);
  try {
    const anchor = config.auditAnchor;
    if (!(await hasAuditLog(database.db))) {
      return {
        exitCode: 2,
        output:
          "no audit log in this database: it has not been set up yet (start the app once, it migrates the database) or DATABASE_URL / DATA_DIR points at another one",
      };
    }
    const result = await verifyAuditLog(database.db, anchor);
    if (result.ok) {
      const signed =
        result.signedSeq === null
          ? `no signed head: ${anchor.file} could not be written`
          : `signed head at seq ${result.signedSeq}`;
      return {
        exitCode: 0,
        output: `audit log OK: ${result.rows} rows, chain intact to seq ${result.lastSeq} (${signed})`,
      };
    }
    const signedHead = `the signed head (${anchor.file}, signed ${result.signedAt ?? "?"})`;
    if (result.reason === "truncated") {
      return {
        exitCode: 1,
        output: `audit log CUT at seq ${result.seq}: the chain ends at seq ${result.lastSeq} but ${signedHead} reaches seq ${result.signedSeq} (rows ${result.seq}–${result.signedSeq} were deleted and the head moved back) [truncated]`,
      };
    }
    if (result.reason === "rewritten") {
      return {
        exitCode: 1,
        output: `audit log REWRITTEN at seq ${result.seq}: this row is not the one ${signedHead} recorded (the chain was recomputed or replaced) [rewritten]`,
      };
    }
    if (result.reason === "signed_head_invalid") {
      return {
        exitCode: 1,
        output: `audit log's signed head INVALID: ${anchor.file} does not verify with AUDIT_ANCHOR_KEY (edited, or signed with another key) [signed_head_invalid]`,
      };
    }
    const why = {
      hash_mismatch: "its content does not match its hash (the row was altered)",
      broken_link: "its prev_hash is not the previous row's hash (a row before it was altered or replaced)",
      missing_rows: "this row is missing (deleted)",
      head_mismatch: "the chain head does not point at the last row (rows were removed or rewritten)",
    }[result.reason];
    return {
      exitCode: 1,
      output: `audit log BROKEN at seq ${result.seq}: ${why} [${result.reason}]; ${result.rows} rows before it verified`,
    };
  } finally {
    await database.close();
  }
}

/** Whether the database has been migrated as far as the audit log (an empty DATA_DIR has not). */
async function hasAuditLog(db: Database): Promise<boolean> {
  const [row] = rowsOf<{ present: boolean }>(
    await db.execute(sql`select to_regclass('public.audit_log') is not null as present`),
  );
  return row?.present === true;
}

/**
 * `npm run staff:create-admin -- --contact admin@example.com --name 王大明`: the first admin of a fresh
 * install, as a one-time invitation link (72 h). Never a default password.
 */
export async function createAdminCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<CommandResult> {
  const arg = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const contact = arg("contact");
  const name = arg("name");
  if (!contact || !name) {
    return {
      exitCode: 2,
      output: "usage: npm run staff:create-admin -- --contact <e-mail or mobile> --name <display name>",
    };
  }
  const config = loadConfig(env);
  const database = await openDatabase(config.database);
  try {
    await database.migrate();
    const result = await createFirstAdmin(database.db, { contact, displayName: name, baseUrl: config.publicBaseUrl });
    if (!result.ok) {
      return { exitCode: 1, output: "An admin exists already: invite further admins from the console (/admin/staff)." };
    }
    return {
      exitCode: 0,
      output: [
        "First admin invited. Open this link (once, before it expires) to set the password and the second factor:",
        "",
        `  ${result.url}`,
        "",
        `Valid until ${result.expiresAt.toISOString()} (72 hours). Only a hash of it is stored; it is not shown again.`,
      ].join("\n"),
    };
  } catch (error) {
    if (error instanceof StaffError) return { exitCode: 2, output: `${error.field ?? "input"}: ${error.message}` };
    throw error;
  } finally {
    await database.close();
  }
}
