import { describe, expect, it } from "vitest";
import { LOCALES } from "~/lib/i18n";
import { en } from "~/locales/en";
import { zhTW } from "~/locales/zh-TW";
import { CODE_PURPOSES, renderEmail, validateEmailMessage } from "./email-templates.server";
import { MessageRejectedError } from "./errors";
import type { CodePurpose, EmailMessage } from "./types";

const message = (overrides: Partial<EmailMessage["data"]> = {}, locale: EmailMessage["locale"] = "zh-TW") =>
  ({
    to: "Member@Example.COM",
    locale,
    template: "one-time-code",
    data: { code: "482915", purpose: "signup", minutes: 5, ...overrides },
  }) satisfies EmailMessage;

describe("the one-time-code e-mail", () => {
  for (const locale of LOCALES) {
    for (const purpose of CODE_PURPOSES) {
      it(`${locale} / ${purpose}: subject, HTML and text carry the code and the validity`, () => {
        const catalog = locale === "en" ? en : zhTW;
        const { subject, html, text } = renderEmail(message({ purpose, code: "482915", minutes: 7 }, locale));
        expect(subject).toBe(catalog[`email.code.${purpose}.subject`].replace("{code}", "482915"));
        const validFor = catalog["email.code.validFor"].replace("{minutes}", "7");
        for (const part of [html, text]) {
          expect(part).toContain("482915");
          expect(part).toContain(catalog[`email.code.${purpose}.heading`]);
          expect(part).toContain(catalog[`email.code.${purpose}.intro`]);
          expect(part).toContain(validFor);
          expect(part).toContain("漢生活");
        }
        expect(html).toContain(`<html lang="${locale === "en" ? "en" : "zh-Hant-TW"}">`);
        expect(html).toContain(`<title>${subject.replace(/'/g, "&#39;")}</title>`);
      });
    }
  }

  it("says something different for every purpose", () => {
    for (const locale of LOCALES) {
      const subjects = CODE_PURPOSES.map((purpose) => renderEmail(message({ purpose }, locale)).subject);
      const headings = CODE_PURPOSES.map(
        (purpose) => /<h1[^>]*>([^<]+)<\/h1>/.exec(renderEmail(message({ purpose }, locale)).html)?.[1],
      );
      expect(new Set(subjects).size).toBe(CODE_PURPOSES.length);
      expect(new Set(headings).size).toBe(CODE_PURPOSES.length);
    }
  });

  it("words the reset code of the welcome claim as a welcome, never as a reset (ADR 038)", () => {
    for (const locale of LOCALES) {
      const catalog = locale === "en" ? en : zhTW;
      const welcome = renderEmail(message({ purpose: "reset-password", wording: "welcome" }, locale));
      expect(welcome.subject).toBe(catalog["email.code.welcome.subject"].replace("{code}", "482915"));
      for (const part of [welcome.html, welcome.text]) {
        expect(part).toContain(catalog["email.code.welcome.heading"]);
        expect(part).toContain(catalog["email.code.welcome.intro"]);
        expect(part).not.toContain(catalog["email.code.reset-password.heading"]);
        expect(part).not.toContain(catalog["email.code.reset-password.intro"]);
      }
      expect(welcome.html).not.toMatch(/<a\b|href=|https?:/i);
    }
    expect(renderEmail(message({ purpose: "reset-password", wording: "welcome" })).text).not.toContain("重設");
    // The wording only changes a reset: any other purpose keeps its own words.
    expect(renderEmail(message({ purpose: "signup", wording: "welcome" })).subject).toBe(
      renderEmail(message({ purpose: "signup" })).subject,
    );
  });

  it("never carries a link, an image, a script or an external resource", () => {
    for (const locale of LOCALES) {
      for (const purpose of CODE_PURPOSES) {
        const { html, text } = renderEmail(message({ purpose }, locale));
        expect(html).not.toMatch(/<a\b|<img\b|<script\b|<link\b|<style\b|href=|src=|url\(/i);
        expect(html).not.toMatch(/https?:|www\./i);
        expect(text).not.toMatch(/https?:|www\./i);
        // Styles are inline only; mail clients drop <style> blocks.
        expect(html).toMatch(/style="/);
      }
    }
  });

  it("shows the code large, in one selectable block", () => {
    const { html } = renderEmail(message({ code: "013579" }));
    const block = /<p style="([^"]*)">013579<\/p>/.exec(html);
    expect(block).not.toBeNull();
    expect(block?.[1]).toContain("font-size:36px");
    expect(block?.[1]).toContain("user-select:all");
  });

  it("keeps phone number detection away from the code", () => {
    expect(renderEmail(message()).html).toContain('name="format-detection" content="telephone=no');
  });
});

describe("validateEmailMessage", () => {
  it("lowercases the address", () => {
    expect(validateEmailMessage(message()).to).toBe("member@example.com");
  });

  it.each<[string, EmailMessage]>([
    ["an address without @", { ...message(), to: "member.example.com" }],
    ["an address with a display name", { ...message(), to: "Member <member@example.com>" }],
    ["a code with letters", message({ code: "12ab56" })],
    ["an unknown purpose", message({ purpose: "unknown" as CodePurpose })],
    ["a validity of 0 minutes", message({ minutes: 0 })],
    ["an unknown locale", { ...message(), locale: "fr" as EmailMessage["locale"] }],
  ])("refuses %s", (_label, bad) => {
    expect(() => validateEmailMessage(bad)).toThrow(MessageRejectedError);
    expect(() => renderEmail(bad)).toThrow(MessageRejectedError);
  });
});

describe("the e-mail-changed notice", () => {
  it.each(LOCALES)("tells the old address the new one, without a code or link (%s)", (locale) => {
    const rendered = renderEmail({
      to: "old@example.com",
      locale,
      template: "email-changed",
      data: { newEmail: "New@Example.com" },
    });
    expect(rendered.subject.length).toBeGreaterThan(5);
    expect(rendered.text).toContain("new@example.com");
    expect(rendered.html).toContain("new@example.com");
    expect(rendered.html).not.toMatch(/<a\s|https?:\/\//);
    expect(rendered.text).not.toMatch(/\b\d{6}\b/);
  });

  it("refuses a notice whose new address is not an address", () => {
    expect(() =>
      validateEmailMessage({
        to: "old@example.com",
        locale: "zh-TW",
        template: "email-changed",
        data: { newEmail: "x" },
      }),
    ).toThrow(MessageRejectedError);
  });

  it("tells an admin which webhook endpoint was disabled, and since when, escaped (ADR 054)", () => {
    for (const locale of ["zh-TW", "en"] as const) {
      const rendered = renderEmail({
        to: "admin@example.com",
        locale,
        template: "webhook-disabled",
        data: { url: "https://erp.example.com/hook?a=<b>", since: "2026/12/07 03:33" },
      });
      expect(rendered.subject.length).toBeGreaterThan(5);
      expect(rendered.text).toContain("https://erp.example.com/hook?a=<b>");
      expect(rendered.text).toContain("2026/12/07 03:33");
      expect(rendered.html).toContain("https://erp.example.com/hook?a=&lt;b&gt;");
    }
  });
});
