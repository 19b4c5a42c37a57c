import { expect, expectAccessible, test, waitForHydration } from "./fixtures";
import { createMember, newPhone } from "./support/members";
import { PHONE, screenshotSizes } from "./support/screenshots";
import { loginStaffByCookie } from "./support/staff";

/**
 * At the showroom (issue 37 part 2, ADR 045), on a phone as a clerk walks it: today's appointment on the counter's
 * start screen, the member's card typed in by a hand scanner checks it in, the appointment page assigns a
 * consultant of the store and keeps a visit note with a follow-up day, which shows on 今日追蹤. The store is 竹北門市,
 * where no other journey books (the counter journey counts 信義旗艦店's day exactly). Every page is checked with
 * axe and photographed on a phone and a laptop.
 */
const STORE = "zhubei";

test("a clerk sees today's appointment, checks the member in with the card, assigns a consultant and leaves a note", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const base = baseURL ?? "";
  const stamp = Date.now() % 100_000;
  const clerk = await loginStaffByCookie(page.request, context, base, {
    role: "staff",
    storeIds: [STORE],
    displayName: `竹北店員${stamp}`,
  });
  const consultantRes = await page.request.post("/__test/staff", {
    data: { role: "staff", storeIds: [STORE], displayName: `竹北顧問${stamp}` },
  });
  expect(consultantRes.ok()).toBe(true);
  const consultant = (await consultantRes.json()) as { userId: string; displayName: string; setCookie: string[] };
  const created = await createMember(page.request, { phoneNumber: newPhone().e164, name: "吳佩珊" });
  const bookedRes = await page.request.post("/__test/appointments", {
    data: {
      storeId: STORE,
      memberNumber: created.memberNumber,
      kind: "consultation",
      note: "廚房翻新，想看大板磚",
      materialIds: ["kyoto-mist-porcelain"],
    },
  });
  expect(bookedRes.ok(), await bookedRes.text()).toBe(true);
  const booked = (await bookedRes.json()) as { id: string; reference: string };

  // The counter's start: today's appointment, on a phone.
  await page.setViewportSize(PHONE);
  await page.goto("/admin/counter");
  await waitForHydration(page);
  const today = page.getByTestId("counter-appointments");
  const row = today.getByTestId("counter-appointment").filter({ hasText: booked.reference });
  await expect(row).toContainText("設計諮詢");
  await expect(row).toContainText("吳佩珊");
  await expect(row).toContainText("京霧 石英磚");
  await expect(row).toContainText("廚房翻新，想看大板磚");
  await expect(row.getByTestId("visit-status")).toHaveText("已預約");
  await screenshotSizes(page, "visits-counter", { restore: PHONE });

  // The member's card, typed in by a hand scanner: checked in, on the member's counter page.
  const tokenRes = await page.request.post("/__test/card-tokens", { data: { memberNumber: created.memberNumber } });
  const { token } = (await tokenRes.json()) as { token: string };
  await page.getByLabel("手機號碼或會員編號").fill(token);
  await page.getByRole("button", { name: "查詢", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/counter/member/${created.memberId}\\?checkedIn=${booked.reference}`));
  await expect(page.getByTestId("checked-in")).toHaveText(`預約 ${booked.reference} 已報到。`);
  await expect(page.getByTestId("member-appointments").getByTestId("visit-status")).toHaveText("已報到");
  await expect(page.getByTestId("check-in")).toHaveCount(0);
  await screenshotSizes(page, "visits-counter-member", { restore: PHONE });

  // The appointment page: a consultant of the store, then the visit note and a follow-up today.
  await page
    .getByTestId("member-appointments")
    .getByRole("link", { name: `查看預約 ${booked.reference}` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/admin/appointments/${booked.id}$`));
  await waitForHydration(page);
  await expect(page.getByTestId("visit-title")).toContainText(booked.reference);
  await page.getByLabel("指派顧問（本門市人員）").selectOption(consultant.userId);
  await page.getByTestId("visit-consultant-save").click();
  await expect(page.getByText("已儲存顧問。")).toBeVisible();
  await expect(page.getByLabel("指派顧問（本門市人員）")).toHaveValue(consultant.userId);
  await page.getByLabel("到訪紀要").fill("喜歡京霧，下週帶設計師再來");
  const todayIso = await page.getByLabel("追蹤日").getAttribute("min");
  await page.getByLabel("追蹤日").fill(todayIso ?? "");
  await page.getByTestId("visit-note-save").click();
  await expect(page.getByText("已儲存到訪紀要。")).toBeVisible();
  await expect(page.getByLabel("到訪紀要")).toHaveValue("喜歡京霧，下週帶設計師再來");
  await expect(page.getByTestId("visit-follow-up")).toBeVisible();
  await screenshotSizes(page, "visits-appointment", { restore: PHONE });

  // The list of the store's appointments today.
  await page.goto("/admin/appointments");
  await waitForHydration(page);
  const listed = page.getByTestId("visit-row").filter({ hasText: "吳佩珊" });
  await expect(listed.getByTestId("visit-status")).toHaveText("已報到");
  await expect(listed).toContainText(consultant.displayName);
  await screenshotSizes(page, "visits-list", { restore: PHONE });

  // 今日追蹤: the clerk has none of their own; the follow-up is the consultant's.
  await page.goto("/admin/appointments/follow-ups");
  await expect(page.getByTestId("follow-ups-empty")).toBeVisible();
  expect(clerk.userId).not.toBe(consultant.userId);

  // The consultant, on their own phone: the follow-up is on their list; marked done, it leaves it.
  const url = new URL(base);
  await context.addCookies(
    consultant.setCookie.map((header) => {
      const [pair = ""] = header.split(";");
      const index = pair.indexOf("=");
      return {
        name: pair.slice(0, index),
        value: pair.slice(index + 1),
        domain: url.hostname,
        path: "/",
        httpOnly: true,
        sameSite: "Strict" as const,
      };
    }),
  );
  await page.goto("/admin/appointments/follow-ups");
  await waitForHydration(page);
  const followUp = page.getByTestId("follow-up-row").filter({ hasText: "吳佩珊" });
  await expect(followUp).toContainText("喜歡京霧，下週帶設計師再來");
  await screenshotSizes(page, "visits-follow-ups", { restore: PHONE });
  await followUp.getByRole("button", { name: "標記已追蹤：吳佩珊" }).click();
  await expect(page.getByText("已標記為已追蹤。")).toBeVisible();
  await expect(page.getByTestId("follow-ups-empty")).toBeVisible();
  await expectAccessible(page);
});
