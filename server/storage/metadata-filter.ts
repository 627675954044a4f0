/**
 * Radar's `metadata[key]=value` list and search filters: a record matches when each key's stored
 * value is that value, a query string's text read as the type stored (`metadata[floor]=3` finds
 * 3 and "3"; `metadata[open]=true` finds true and "true"). Shared by the storage adapters (lists,
 * in the database) and the searches (over their candidates).
 */
export type MetadataFilter = Readonly<Record<string, string>>;

export function metadataMatches(metadata: unknown, filter: MetadataFilter): boolean {
  if (!metadata || typeof metadata !== "object") return false;
  const m = metadata as Record<string, unknown>;
  return Object.entries(filter).every(([key, want]) => storedForms(want).some((f) => f === m[key]));
}

/** The values a filter's text may be stored as: the text, and the number or boolean it reads as. */
export function storedForms(text: string): (string | number | boolean)[] {
  const forms: (string | number | boolean)[] = [text];
  if (text.trim() !== "" && Number.isFinite(Number(text))) forms.push(Number(text));
  if (text === "true" || text === "false") forms.push(text === "true");
  return forms;
}

/**
 * The rows whose metadata (as the driver reads it: JSON text on SQLite, a value on PostgreSQL)
 * matches, without it: what a spatial read selected only to filter on.
 */
export function matchingRows<R extends { metadata?: unknown }>(
  rows: readonly R[],
  filter: MetadataFilter,
): Omit<R, "metadata">[] {
  return rows
    .filter((r) =>
      metadataMatches(typeof r.metadata === "string" ? JSON.parse(r.metadata) : r.metadata, filter),
    )
    .map(({ metadata: _m, ...r }) => r);
}
