/** Datetime-cursor paging shared by every list: a window on the sort key, one row of lookahead. */

/** The Prisma filter for `before < value < after`, or undefined (no filter) when neither is set. */
export function dateWindow(before?: Date, after?: Date) {
  if (!before && !after) return undefined;
  return { ...(before && { lt: before }), ...(after && { gt: after }) };
}

/** Rows fetched with `take: limit + 1` into the page and whether more exist. */
export function page<T>(rows: T[], limit: number): { items: T[]; hasMore: boolean } {
  return { items: rows.slice(0, limit), hasMore: rows.length > limit };
}
