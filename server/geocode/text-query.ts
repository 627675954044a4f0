import { queryTerms } from "./normalize";

/**
 * An FTS5 expression for typed text: every word must match (one of its alternatives: the word,
 * what its abbreviation stands for); with `prefix`, the last word may be the start of one (what
 * autocomplete needs while the user is still typing). Empty when nothing searchable was typed.
 */
export function ftsExpression(text: string, options: { prefix?: boolean; columns?: string } = {}): string {
  const terms = queryTerms(text);
  const scope = options.columns ? `${options.columns} : ` : "";
  return terms
    .map((alternatives, i) => {
      const last = options.prefix && i === terms.length - 1;
      const alts = alternatives.map((t) => `"${t}"${last ? " *" : ""}`);
      return `${scope}(${alts.join(" OR ")})`;
    })
    .join(" AND ");
}
