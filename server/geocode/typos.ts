/**
 * One-letter typos (docs/geocoding.md#typos): a word missing from an index may be one edit
 * (a letter left out, added, replaced, or two swapped) away from words that are in it. Found the
 * SymSpell way: every indexed word is filed under itself and under each of its one-letter
 * deletions, so the candidates for a typed word are the words filed under it and under its own
 * deletions, checked with the real edit distance. Built once per vocabulary, on first need.
 */

/** Words shorter than this are not corrected: "st" is one letter away from too much. */
export const MIN_TYPO_LENGTH = 4;

export class TypoIndex {
  private filed = new Map<string, string[]>();
  private known: Set<string>;

  constructor(vocabulary: Iterable<string>) {
    this.known = new Set(vocabulary);
    for (const word of this.known) {
      if (word.length < MIN_TYPO_LENGTH - 1 || /\d/.test(word)) continue;
      for (const key of [word, ...deletions(word)]) {
        const list = this.filed.get(key);
        if (list) {
          if (list[list.length - 1] !== word) list.push(word);
        } else this.filed.set(key, [word]);
      }
    }
  }

  has(word: string): boolean {
    return this.known.has(word);
  }

  /** Indexed words one edit away from `word` (none for short words, numbers or known words). */
  corrections(word: string): string[] {
    if (word.length < MIN_TYPO_LENGTH || /\d/.test(word) || this.known.has(word)) return [];
    const found = new Set<string>();
    for (const key of [word, ...deletions(word)]) {
      for (const candidate of this.filed.get(key) ?? []) {
        if (withinOneEdit(word, candidate)) found.add(candidate);
      }
    }
    return [...found];
  }
}

function deletions(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < word.length; i++) out.push(word.slice(0, i) + word.slice(i + 1));
  return out;
}

/** Whether two different words are one insertion, deletion, substitution or swap of neighbours apart. */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return false;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true; // substitution
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2); // swap
  }
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  return long.slice(i + 1) === short.slice(i);
}
