import { describe, expect, it } from "vitest";
import { listField, parseListQuery } from "./list-query";

const url = (query: string) => new URL(`https://example.test/admin/list?${query}`);

const SPEC = {
  q: listField.text(10),
  long: listField.text(5, { refuse: true }),
  status: listField.choice(["active", "retired"], "active"),
  kind: listField.choice(["a", "b"], null),
  from: listField.date(),
  page: listField.int(1, 100, 1),
  before: listField.int(1, Number.MAX_SAFE_INTEGER, null),
  after: listField.cursor(),
  code: listField.cursor(/^c\d+$/),
};

describe("parseListQuery", () => {
  it("answers the defaults for an empty query", () => {
    const query = parseListQuery(url(""), SPEC);
    expect(query.values).toEqual({
      q: "",
      long: "",
      status: "active",
      kind: null,
      from: null,
      page: 1,
      before: null,
      after: null,
      code: null,
    });
    expect(query.issues).toEqual({});
    expect(query.valid).toBe(true);
  });

  it("reads good values, trimmed", () => {
    const query = parseListQuery(
      url("q=+oak+&status=retired&kind=b&from=2026-02-28&page=7&before=42&after=abc&code=c12"),
      SPEC,
    );
    expect(query.values).toEqual({
      q: "oak",
      long: "",
      status: "retired",
      kind: "b",
      from: { year: 2026, month: 2, day: 28 },
      page: 7,
      before: 42,
      after: "abc",
      code: "c12",
    });
    expect(query.raw.from).toBe("2026-02-28");
  });

  it("falls back quietly on unknown choices, numbers out of range and cursors of the wrong shape", () => {
    const query = parseListQuery(url("status=all&kind=z&page=0&before=-3&code=x1"), SPEC);
    expect(query.values).toMatchObject({ status: "active", kind: null, page: 1, before: null, code: null });
    expect(parseListQuery(url("page=101"), SPEC).values.page).toBe(1);
    expect(parseListQuery(url("page=2.5"), SPEC).values.page).toBe(1);
    expect(parseListQuery(url("page=abc"), SPEC).values.page).toBe(1);
    expect(query.raw.status).toBe("all");
    expect(query.valid).toBe(true);
  });

  it("cuts long text quietly, or keeps it and reports it when the field refuses it", () => {
    const query = parseListQuery(url("q=abcdefghijkl&long=abcdefg"), SPEC);
    expect(query.values.q).toBe("abcdefghij");
    expect(query.values.long).toBe("abcdefg");
    expect(query.raw.long).toBe("abcdefg");
    expect(query.issues).toEqual({ long: "tooLong" });
    expect(query.valid).toBe(false);
  });

  it("reports a date that is not a real day, keeping what was written", () => {
    for (const bad of ["2026-02-30", "2026-2-3", "yesterday", "2026-13-01"]) {
      const query = parseListQuery(url(`from=${encodeURIComponent(bad)}`), SPEC);
      expect(query.values.from).toBeNull();
      expect(query.issues).toEqual({ from: "date" });
      expect(query.raw.from).toBe(bad);
    }
  });
});
