/**
 * Text for the journey map picture: XML escaping and line wrapping. Every string a user typed
 * passes `escapeXml` before it reaches the SVG, so a title of `<script>` is drawn as text.
 */

/**
 * Characters XML 1.0 allows (https://www.w3.org/TR/xml/#charsets): one control character or lone
 * surrogate in a title would make the whole picture unreadable to every SVG parser, so those go.
 */
function isXmlCharacter(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    code >= 0x10000
  );
}

export function escapeXml(value: string): string {
  let kept = '';
  for (const character of value) if (isXmlCharacter(character.codePointAt(0) ?? 0)) kept += character;
  return kept.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&apos;');
}

/**
 * Average advance of one character as a share of the font size. SVG has no text flow, so lines are
 * broken by an estimate: generous enough that Latin and Arabic text stay inside their cell.
 */
const CHARACTER_WIDTH = 0.58;

export function charactersPerLine(width: number, fontSize: number): number {
  return Math.max(4, Math.floor(width / (fontSize * CHARACTER_WIDTH)));
}

/**
 * Breaks text into at most `maxLines` lines of at most `perLine` characters (code points), at
 * spaces where it can and inside a word where it must; a cut text ends with an ellipsis.
 */
export function wrapText(text: string, perLine: number, maxLines: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line: string[] = [];
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      let rest = [...word];
      if (line.length > 0 && line.length + 1 + rest.length <= perLine) {
        line.push(' ', ...rest);
        continue;
      }
      if (line.length > 0) lines.push(line.join(''));
      line = [];
      while (rest.length > perLine) {
        lines.push(rest.slice(0, perLine).join(''));
        rest = rest.slice(perLine);
      }
      line = rest;
    }
    if (line.length > 0) lines.push(line.join(''));
  }
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  const last = [...(kept[maxLines - 1] ?? '')];
  kept[maxLines - 1] = `${last.slice(0, Math.max(0, perLine - 1)).join('')}…`;
  return kept;
}
