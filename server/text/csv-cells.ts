/**
 * CSV cells that a spreadsheet would run as a formula (text starting with =, +, -, @, a tab or a
 * carriage return: "CSV injection") are written with a leading apostrophe, which spreadsheets
 * show as text; numbers are left as they are. Reading a file back takes one apostrophe off such a
 * cell, so an export imports again as it was (a cell that already started with apostrophes and a
 * formula character gets one more).
 */

const FORMULA = /^'*[=+\-@\t\r]/;
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

export function safeCell(v: unknown): unknown {
  return typeof v === "string" && FORMULA.test(v) && !NUMBER.test(v) ? `'${v}` : v;
}

export function unsafeCell(v: string): string {
  return v.startsWith("'") && FORMULA.test(v) && !NUMBER.test(v.slice(1)) ? v.slice(1) : v;
}
