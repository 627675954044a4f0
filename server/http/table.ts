import { z } from "zod";
import { intIn, optionalString } from "./fields";

/**
 * The dashboard tables' query: a page number and size, a sort column (of those the table
 * allows) and direction, and a search text. Sorted, searched and paged by the database, so
 * every row is reachable in either order, not only those of one page read.
 */
export const tableQuery = <S extends string>(sorts: readonly [S, ...S[]], fallback: S, dir: "asc" | "desc") =>
  z.object({
    page: intIn(1, 1_000_000, 1),
    size: intIn(10, 200, 50),
    sort: z.enum(sorts, { error: `must be one of ${sorts.join(", ")}` }).default(fallback),
    dir: z.enum(["asc", "desc"], { error: "must be asc or desc" }).default(dir),
    search: optionalString(100),
  });

/** A parsed table query, with the sort columns `S`. */
export type TableQuery<S extends string> = z.output<ReturnType<typeof tableQuery<S>>>;

/** The rows of one page (the answer also says how many match in all). */
export const pageOf = (q: TableQuery<string>) => ({ skip: (q.page - 1) * q.size, take: q.size });
