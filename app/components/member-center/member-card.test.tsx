import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { catalogT } from "~/lib/i18n.server";
import { MemberCard } from "./member-card";

/**
 * The member card's QR code as a screen reader meets it (issue 33 item 14): a label a person understands
 * (會員條碼，每 40 秒更新), and the raw 50-character token nowhere in what is read — no visually hidden copy
 * of it, no name made of it. Browser tests read the live token from a data attribute instead.
 */
const TOKEN = `${"A".repeat(27)}.${"b".repeat(22)}`;
const issuedAt = new Date("2026-11-28T02:00:00.000Z");
const payload = {
  token: TOKEN,
  svg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><path d="M0 0h1v1H0z"/></svg>',
  issuedAt: issuedAt.toISOString(),
  expiresAt: new Date(issuedAt.getTime() + 45_000).toISOString(),
};

function render(locale: "zh-TW" | "en") {
  return renderToString(
    <MemberCard
      t={catalogT(locale)}
      name="林雅婷"
      memberNumber="HL10000001"
      tierLabel="銀卡"
      tier="silver"
      initialToken={payload}
    />,
  );
}

/** The text a screen reader reads: text content and aria-labels, without hidden (aria-hidden) parts. */
function readable(html: string): string {
  const withoutHidden = html.replace(/<([a-z]+)[^>]*aria-hidden="true"[^>]*>[\s\S]*?<\/\1>/g, "");
  const labels = [...withoutHidden.matchAll(/aria-label="([^"]*)"/g)].map((m) => m[1]);
  const text = withoutHidden.replace(/<svg[\s\S]*?<\/svg>/g, "").replace(/<[^>]+>/g, " ");
  return `${labels.join(" | ")} | ${text}`;
}

describe("the member card", () => {
  it("names its QR code 會員條碼，每 40 秒更新, and never reads the token", () => {
    const html = render("zh-TW");
    expect(html).toMatch(/role="img" aria-label="會員條碼，每 40 秒更新"/);
    expect(readable(html)).not.toContain(TOKEN);
    expect(html).not.toMatch(new RegExp(`>\\s*${TOKEN.replace(".", "\\.")}\\s*<`));
    // Tests (and only tests) read the live token from an attribute no screen reader reads.
    expect(html).toContain(`data-token="${TOKEN}"`);
  });

  it("in English too", () => {
    const html = render("en");
    expect(html).toMatch(/role="img" aria-label="Member barcode, refreshes every 40 seconds"/);
    expect(readable(html)).not.toContain(TOKEN);
  });
});
