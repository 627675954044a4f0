import { parse } from "csv-parse/sync";

/** The most problems reported; past it, how many more there were. */
const MAX_PROBLEMS = 25;

/** A row: its required columns (always present), any other, and its line in the file. */
export type Row<K extends string = never> = Record<K, string> &
  Partial<Record<string, string>> & { __line: number };

/**
 * The feed's files as tables, and the problems found in them: what every file's checker is
 * given. A problem names its file, line and field; past MAX_PROBLEMS they are only counted.
 */
export class FeedFiles {
  readonly problems: string[] = [];

  constructor(private files: Map<string, string>) {}

  has(name: string) {
    return this.files.has(name);
  }

  problem(where: string, message: string) {
    if (this.problems.length <= MAX_PROBLEMS) this.problems.push(`${where}: ${message}`);
  }

  /** Where a row (and a field of it) is, as a problem says it. */
  at(name: string, row: { __line: number }, field?: string) {
    return `${name} line ${row.__line}${field ? ` (${field})` : ""}`;
  }

  /** The rows of a file; none (and a problem) when it is missing but required, unreadable or lacks a column. */
  table<K extends string>(name: string, required: boolean, columns: K[]): Row<K>[] {
    const text = this.files.get(name);
    if (text === undefined) {
      if (required) this.problem(name, "the file is missing");
      return [];
    }
    let header: string[] = [];
    let rows: { record: Record<string, string>; info: { lines: number } }[];
    try {
      rows = parse(text, {
        bom: true,
        columns: (names: string[]) => (header = names.map((h) => h.trim())),
        skip_empty_lines: true,
        relax_column_count: true,
        trim: true,
        info: true,
      });
    } catch (e) {
      this.problem(name, `not readable as CSV (${(e as Error).message})`);
      return [];
    }
    const missing = columns.filter((c) => !header.includes(c));
    if (missing.length) {
      this.problem(name, `required column${missing.length > 1 ? "s" : ""} ${missing.join(", ")} missing`);
      return [];
    }
    // Line numbers as an editor shows them (the parser's: the line a record ends on).
    return rows.map(({ record, info }) => Object.assign(record, { __line: info.lines }) as unknown as Row<K>);
  }

  /** The problems as they are reported: with how many more there were. */
  report(): string[] {
    if (this.problems.length > MAX_PROBLEMS)
      return [...this.problems, `and more problems after these ${MAX_PROBLEMS}`];
    return this.problems;
  }
}

/** "H:MM:SS" (hours may pass 24) as seconds, or undefined when empty; NaN when malformed. */
export function gtfsTime(value: string | undefined): number | undefined {
  if (!value?.trim()) return undefined;
  const m = /^\s*(\d{1,3}):([0-5]\d):([0-5]\d)\s*$/.exec(value);
  return m ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) : NaN;
}

/** "YYYYMMDD" as a number, NaN when it is not a date. */
export function gtfsDate(value: string | undefined): number {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(value?.trim() ?? "");
  if (!m) return NaN;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCMonth() === mo - 1 && date.getUTCDate() === d ? y * 10000 + mo * 100 + d : NaN;
}
