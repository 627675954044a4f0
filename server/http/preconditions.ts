import { parseCursorDate } from "./datetime";
import { invalid } from "../errors";

/**
 * The version a change applies to: `If-Match` carrying the record's `updatedAt` (quoted as an
 * entity tag or not). Absent: the change applies to whatever is stored.
 */
export function ifMatchDate(req: Request): Date | undefined {
  const value = req.headers.get("if-match")?.trim();
  if (!value || value === "*") return undefined;
  const date = parseCursorDate(value.replace(/^W\//, "").replace(/^"(.*)"$/, "$1"));
  if (!date) throw invalid("If-Match", "must be the updatedAt of the version being changed");
  return date;
}
