/** The comma-separated lists of names an operator passes to cxctl (`--permissions`, `--modules`). */

/** The names of `list`, trimmed, empty ones dropped, and those of them `isKnown` does not accept. */
export function parseNameList(list: string, isKnown: (name: string) => boolean): { names: string[]; unknown: string[] } {
  const names = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return { names, unknown: names.filter((n) => !isKnown(n)) };
}
