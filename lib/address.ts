/**
 * Writes a page's state (filters, selection, map view) into the address bar, for shareable
 * links, without a navigation. The history entry keeps its state object: Next.js then leaves
 * its router alone (it only syncs, and so could undo a navigation the user just started by
 * clicking a link, when the state object is a foreign one). Pages read their state from the
 * address once, when they open.
 */
export function replaceQuery(params: Record<string, string | undefined | null | false>): void {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) query.set(key, value);
  const text = query.toString();
  const url = `${window.location.pathname}${text ? `?${text}` : ""}`;
  if (url !== `${window.location.pathname}${window.location.search}`) {
    window.history.replaceState(window.history.state, "", url);
  }
}
