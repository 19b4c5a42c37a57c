import { describe, expect, it } from "vitest";
import {
  formatTaiwanMobile,
  isValidEinvoiceCarrier,
  isValidTaxIdNumber,
  maskTaiwanMobile,
  normalizeTaiwanMobile,
} from "./taiwan";

describe("normalizeTaiwanMobile", () => {
  it.each([
    ["0912345678", "+886912345678"],
    ["0912-345-678", "+886912345678"],
    ["0912 345 678", "+886912345678"],
    ["+886912345678", "+886912345678"],
    ["+886 912 345 678", "+886912345678"],
    ["886912345678", "+886912345678"],
    ["+8860912345678", "+886912345678"],
    ["(0912) 345-678", "+886912345678"],
  ])("accepts %s", (input, expected) => {
    expect(normalizeTaiwanMobile(input)).toBe(expected);
  });

  it.each([
    ["landline", "0223456789"],
    ["too short", "091234567"],
    ["too long", "09123456789"],
    ["foreign", "+14155552671"],
    ["letters", "09ab345678"],
    ["empty", ""],
    ["script", "<script>0912345678</script>"],
  ])("refuses %s", (_label, input) => {
    expect(normalizeTaiwanMobile(input)).toBeNull();
  });

  it("formats and masks for display", () => {
    expect(formatTaiwanMobile("+886912345678")).toBe("0912-345-678");
    expect(maskTaiwanMobile("+886912345678")).toBe("0912-***-678");
  });
});

describe("isValidTaxIdNumber (統一編號)", () => {
  it("accepts numbers whose weighted digit sum is divisible by 5", () => {
    expect(isValidTaxIdNumber("22099131")).toBe(true); // sum 30
    expect(isValidTaxIdNumber("04595257")).toBe(true); // sum 40
  });
  it("accepts sum + 1 divisible by 5 only when the 7th digit is 7", () => {
    expect(isValidTaxIdNumber("10000073")).toBe(true);
    // Same sum shape without a 7 in the 7th place is invalid.
    expect(isValidTaxIdNumber("12345678")).toBe(false); // sum 42
  });
  it("refuses anything that is not 8 digits", () => {
    for (const v of ["2209913", "220991311", "2209913a", "", " 22099131"]) expect(isValidTaxIdNumber(v)).toBe(false);
  });
});

describe("isValidEinvoiceCarrier", () => {
  it("takes a slash and 7 of 0-9 A-Z . + -", () => {
    expect(isValidEinvoiceCarrier("/ABC1234")).toBe(true);
    expect(isValidEinvoiceCarrier("/A.B+C-1")).toBe(true);
    expect(isValidEinvoiceCarrier("ABC12345")).toBe(false);
    expect(isValidEinvoiceCarrier("/abc1234")).toBe(false);
    expect(isValidEinvoiceCarrier("/ABC123")).toBe(false);
    expect(isValidEinvoiceCarrier("/ABC12345")).toBe(false);
  });
});
