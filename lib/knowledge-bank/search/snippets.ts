/**
 * A result's snippet: a window of the article's summary and body around the first word that
 * matched, with the offsets of every matching word in it, so a client can highlight them in either
 * script without re-implementing Arabic normalisation or English stemming.
 */
import { type Token, termsOf, tokensOf, wordsOf } from './normalise.ts';

const SNIPPET_CHARS = 180;
/** How much text comes before the first match, so it reads in context. */
const LEAD_CHARS = 50;
const ELLIPSIS = '…';

export interface Snippet {
  text: string;
  /** [start, end) offsets into `text` (JavaScript string indices). */
  highlights: Array<[number, number]>;
}

/** The first word of `source` that `matches`, found without tokenising the rest (texts can be long). */
function firstMatch(source: string, matches: (word: string) => boolean): Token | undefined {
  for (const token of wordsOf(source)) if (matches(token.text)) return token;
  return undefined;
}

export function snippetOf(source: string, matchedTerms: ReadonlySet<string>): Snippet {
  const matches = (word: string) => termsOf(word).some((term) => matchedTerms.has(term));
  const first = firstMatch(source, matches);
  let start = 0;
  if (first && first.end > SNIPPET_CHARS - LEAD_CHARS) {
    // Begin at a word boundary about LEAD_CHARS before the first hit.
    const from = tokensOf(source.slice(0, first.start)).find((token) => token.start >= first.start - LEAD_CHARS);
    start = from ? from.start : first.start;
  }
  let end = Math.min(source.length, start + SNIPPET_CHARS);
  if (end < source.length) {
    // End at a word boundary, never inside a word (a word cut by the window's edge ends past it).
    const last = tokensOf(source.slice(0, end + 1))
      .filter((token) => token.start >= start && token.end <= end)
      .at(-1);
    if (last && last.end > start) end = last.end;
  }
  const prefix = start > 0 ? ELLIPSIS : '';
  const suffix = end < source.length ? ELLIPSIS : '';
  const text = `${prefix}${source.slice(start, end).replace(/\s+/g, ' ')}${suffix}`;
  // Whitespace runs were folded, so offsets are found again in the folded text.
  const highlights: Array<[number, number]> = [];
  const window = tokensOf(text);
  for (const token of window) if (matches(token.text)) highlights.push([token.start, token.end]);
  return { text, highlights };
}
