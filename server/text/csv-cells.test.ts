import { describe, expect, it } from "vitest";
import { safeCell, unsafeCell } from "./csv-cells";

describe("CSV cells", () => {
  it.each(["=SUM(A1)", "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(1)", "\tx", "\rx", "'=already", "''@twice"])(
    "writes %j as text and reads it back as it was",
    (v) => {
      const written = safeCell(v) as string;
      expect(written.startsWith("'")).toBe(true);
      expect(unsafeCell(written)).toBe(v);
    },
  );

  it.each(["-73.97", "+1", "-1e-5", "plain", "'quoted", "", "42"])("leaves %j as it is", (v) => {
    expect(safeCell(v)).toBe(v);
    expect(unsafeCell(v)).toBe(v);
  });

  it("leaves what is not text as it is", () => {
    expect(safeCell(-3)).toBe(-3);
    expect(safeCell(null)).toBe(null);
  });
});
