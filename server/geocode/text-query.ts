import { queryTerms } from "../text/normalize";

/**
 * FTS5 expressions for the text index (./text-index.ts): the one place that writes
 * them, for forward geocoding's candidates (server/geocode/forward.ts) and for typed text.
 */

/** A token as an FTS5 string (quotes doubled). */
export const quote = (token: string) => `"${token.replace(/"/g, '""')}"`;

/** Any of a word's alternatives; with `prefix`, the start of one (while typing). */
export function anyOf(tokens: readonly string[], prefix = false): string {
  return `(${tokens.map((t) => `${quote(t)}${prefix ? " *" : ""}`).join(" OR ")})`;
}

/**
 * An FTS5 expression for typed text: every word must match (one of its alternatives: the word,
 * what its abbreviation stands for); with `prefix`, the last word may be the start of one (what
 * autocomplete needs while the user is still typing). Empty when nothing searchable was typed.
 */
export function ftsExpression(text: string, options: { prefix?: boolean; columns?: string } = {}): string {
  const terms = queryTerms(text);
  const scope = options.columns ? `${options.columns} : ` : "";
  return terms
    .map((alternatives, i) => `${scope}${anyOf(alternatives, options.prefix && i === terms.length - 1)}`)
    .join(" AND ");
}
