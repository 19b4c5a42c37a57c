import type { Database } from "@platform/db/client";
import { sql } from "drizzle-orm";

/**
 * `count` members in two statements, for tests that need thousands (races, bulk relinks, summaries): users
 * `${prefix}1` … `${prefix}${count}`, member numbers `${numbers}` + the 8-digit index, phones `${phones}` + the
 * 7-digit index. What a test adds to them (a LINE login, purchases) it selects by `user_id like '${prefix}%'`.
 */
export async function insertBulkMembers(
  db: Database,
  o: { prefix: string; count: number; numbers: string; phones: string },
): Promise<void> {
  await db.execute(sql`
    with users as (
      insert into auth_user (id, name, email)
      select ${o.prefix} || g, '測試', ${o.prefix} || g || '@phone.invalid' from generate_series(1, ${o.count}::int) g
      returning id)
    insert into member (user_id, member_number, name_zh, phone_number)
    select id, ${o.numbers} || lpad(substr(id, ${o.prefix.length + 1}::int), 8, '0'), '王小明',
           ${o.phones} || lpad(substr(id, ${o.prefix.length + 1}::int), 7, '0')
      from users`);
}
