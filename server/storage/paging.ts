/**
 * Datetime-cursor paging shared by every list (Radar's cursors are datetimes). Records keep the
 * instant they happened at, so several may share one; a page never splits such a group, so
 * passing the last record's time as the strict `before` cursor reaches every record exactly once.
 */

/** The Prisma filter for `before < value < after`, or undefined (no filter) when neither is set. */
export function dateWindow(before?: Date, after?: Date) {
  if (!before && !after) return undefined;
  return { ...(before && { lt: before }), ...(after && { gt: after }) };
}

/** Rows fetched with `take: limit + 1` into the page and whether more exist. */
export function page<T>(rows: T[], limit: number): { items: T[]; hasMore: boolean } {
  return { items: rows.slice(0, limit), hasMore: rows.length > limit };
}

/** A window on the sort key, both ends strict. */
export interface Window {
  before?: Date;
  after?: Date;
}

/**
 * One page, newest first, of what `list` finds in a window (at most `take` rows; every row when
 * `take` is undefined): at most `limit` records, ending before a group of equal instants it
 * cannot hold whole; a page that would then be empty holds the whole first group, past `limit`.
 */
export async function pageOfWholeInstants<T>(
  list: (window: Window, take?: number) => Promise<T[]>,
  window: Window,
  limit: number,
  instant: (row: T) => Date,
): Promise<{ items: T[]; hasMore: boolean }> {
  const rows = await list(window, limit + 1);
  if (rows.length <= limit) return { items: rows, hasMore: false };
  const edge = instant(rows[limit]!).getTime();
  if (instant(rows[limit - 1]!).getTime() !== edge) return { items: rows.slice(0, limit), hasMore: true };
  const cut = rows.findIndex((r) => instant(r).getTime() === edge);
  if (cut > 0) return { items: rows.slice(0, cut), hasMore: true };
  // The page is one group of equal instants, larger than the limit: all of it, and whether
  // anything older is left (the window's lower end is strict and below the group's instant).
  const [group, older] = await Promise.all([
    list({ before: new Date(edge + 1), after: new Date(edge - 1) }),
    list({ ...window, before: new Date(edge) }, 1),
  ]);
  return { items: group, hasMore: older.length > 0 };
}
