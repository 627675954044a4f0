import { parse as parseCsv } from "csv-parse/sync";
import { ApiError } from "../errors";

/**
 * An imported CSV file's rows by its header's column names (cells trimmed, a byte-order mark and
 * empty lines left out); a file that is not CSV is refused naming `file`.
 */
export function csvRecords(text: string): Record<string, string>[] {
  try {
    return parseCsv(text, { columns: true, bom: true, skip_empty_lines: true, trim: true }) as Record<
      string,
      string
    >[];
  } catch (e) {
    throw new ApiError("invalid_input", `file: is not readable CSV: ${(e as Error).message}`, "file");
  }
}
