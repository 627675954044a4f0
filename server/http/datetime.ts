/**
 * Cursor datetimes as the wire contract accepts them: ISO 8601 (with or without milliseconds
 * or zone; no zone means UTC), "YYYY-MM-DD HH:MM:SS", a bare date, or epoch milliseconds.
 * Returns null when the text is none of these.
 */
export function parseCursorDate(text: string): Date | null {
  const s = text.trim();
  if (/^-?\d{1,16}$/.test(s)) return validDate(new Date(Number(s)));
  const m =
    /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i.exec(
      s,
    );
  if (!m) return null;
  const [, y, mo, d, h = "00", mi = "00", sec = "00", frac = "", zone] = m;
  const ms = frac ? Math.floor(Number(`0.${frac}`) * 1000) : 0;
  const fields = [Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(sec)] as const;
  if (fields[1] < 1 || fields[1] > 12 || fields[2] < 1 || fields[2] > 31) return null;
  if (fields[3] > 23 || fields[4] > 59 || fields[5] > 59) return null;
  let time = Date.UTC(fields[0], fields[1] - 1, fields[2], fields[3], fields[4], fields[5], ms);
  // Date.UTC rolls 31 February over into March; such a date is not valid input.
  if (new Date(time).getUTCDate() !== fields[2]) return null;
  if (zone && zone.toUpperCase() !== "Z") {
    const sign = zone.startsWith("-") ? -1 : 1;
    const digits = zone.slice(1).replace(":", "");
    const offset = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || "0");
    time -= sign * offset * 60_000;
  }
  return validDate(new Date(time));
}

function validDate(d: Date): Date | null {
  return Number.isNaN(d.getTime()) ? null : d;
}
