import { describe, expect, it } from 'vitest';
import { renderJourneyMap } from '../../lib/journeys/map-svg/render.ts';
import { charactersPerLine, escapeXml, wrapText } from '../../lib/journeys/map-svg/text.ts';
import { largeJourneyContent, sampleJourneyContent } from '../support/journey-map-sample.ts';

const picture = (overrides: Partial<Parameters<typeof renderJourneyMap>[0]> = {}) =>
  renderJourneyMap({
    content: sampleJourneyContent(),
    label: 'Opening an account',
    publishedAt: '2026-11-24T09:00:00.000Z',
    locale: 'en',
    ...overrides,
  });

/** The x of the first text drawn for each of these strings, in document order. */
function xOfText(svg: string, text: string): number {
  const at = svg.indexOf(`>${text}<`);
  expect(at, `"${text}" is drawn`).toBeGreaterThan(-1);
  const tspan = svg.lastIndexOf('<tspan x="', at);
  return Number(/<tspan x="([\d.]+)"/.exec(svg.slice(tspan))?.[1]);
}

describe('journey map picture: escaping', () => {
  it('draws a title of <script> as text, never as markup', () => {
    const content = sampleJourneyContent();
    content.stages[0] = { ...content.stages[0]!, titleEn: '<script>alert("x")' };
    content.cells['doing:apply'] = { textEn: `Tom & Jerry's "deal" <b>` };
    const svg = picture({ content, label: '</svg><script>1</script>' });
    expect(svg).not.toContain('<script');
    expect(svg).not.toContain('<b>');
    expect(svg).toContain('&lt;script&gt;alert(&quot;x&quot;)');
    expect(svg).toContain('Tom &amp; Jerry&apos;s &quot;deal&quot; &lt;b&gt;');
    expect(svg.match(/<\/svg>/g)).toHaveLength(1);
  });

  it('drops characters XML forbids, which would break the whole picture', () => {
    expect(escapeXml('a\u0000b\u0007c\uFFFEd\uD800e')).toBe('abcde');
    expect(escapeXml('tab\tand 😀 stay')).toBe('tab\tand 😀 stay');
  });
});

describe('journey map picture: right to left', () => {
  it('mirrors the stages in Arabic, first stage on the right, with Arabic titles', () => {
    const en = picture();
    const ar = picture({ locale: 'ar' });
    expect(xOfText(en, 'Discover')).toBeLessThan(xOfText(en, 'First use'));
    expect(xOfText(ar, 'الاكتشاف')).toBeGreaterThan(xOfText(ar, 'الاستخدام الأول'));
    // Lane titles sit on the reading side: left of every stage in English, right of every stage in Arabic.
    expect(xOfText(en, 'Customer does')).toBeLessThan(xOfText(en, 'Discover'));
    expect(xOfText(ar, 'ما يفعله العميل')).toBeGreaterThan(xOfText(ar, 'الاكتشاف'));
    expect(ar).toContain('direction="rtl"');
    expect(ar).not.toContain('>Discover<');
  });

  it('falls back to English where an Arabic text is missing', () => {
    const content = sampleJourneyContent();
    content.stages[1] = { id: 'apply', titleEn: 'Apply online', microJourneyPairs: [] };
    const ar = picture({ content, locale: 'ar' });
    expect(ar).toContain('>Apply online<');
    expect(xOfText(ar, 'Apply online')).toBeGreaterThan(xOfText(ar, 'التحقق من الهوية'));
  });

  it('keeps numbers and dates left to right inside Arabic text', () => {
    const ar = picture({ locale: 'ar' });
    expect(ar).toContain('\u20662026-11-24\u2069');
    expect(ar).toContain('\u2066-12\u2069');
  });
});

describe('journey map picture: content', () => {
  it('shows the label, the publish date, or that it is a draft', () => {
    expect(picture()).toContain('Published 2026-11-24');
    expect(picture({ publishedAt: null })).toContain('Draft, not published');
    expect(picture()).toContain('<title>Opening an account</title>');
  });

  it('colours metric badges by their target: met green, missed red', () => {
    const svg = picture();
    const badge = (value: string) => {
      const at = svg.indexOf(`>${value}<`);
      return svg.slice(svg.lastIndexOf('<rect', at), at);
    };
    expect(badge('41')).toContain('stroke="#1a7f37"');
    expect(badge('-12')).toContain('stroke="#cf222e"');
    expect(svg).toContain('target 30');
  });

  it('computes a bound cell from its reading and says how many answered', () => {
    const content = sampleJourneyContent();
    content.cells['nps:use'] = { source: { surveyId: 'x', questionId: 'q', measure: 'nps' }, target: 40 } as never;
    const svg = picture({ content, readings: new Map([['nps:use', { value: 20, n: 12 }]]) });
    expect(svg).toContain('>NPS 20<');
    expect(svg).toContain('n=12<');
    const empty = picture({ content, readings: new Map() });
    expect(empty).toContain('NPS — no responses');
  });

  it('draws the emotion row as one curve through every scored stage', () => {
    const svg = picture();
    expect(svg.match(/<path d="M/g)).toHaveLength(1);
    expect(svg.match(/<circle /g)).toHaveLength(4);
  });
});

describe('journey map picture: long text and large maps (wrapped, never scaled)', () => {
  it('wraps at spaces, breaks words that do not fit and ends a cut text with an ellipsis', () => {
    expect(wrapText('one two three four', 9, 5)).toEqual(['one two', 'three', 'four']);
    expect(wrapText('abcdefghijkl', 5, 5)).toEqual(['abcde', 'fghij', 'kl']);
    const cut = wrapText('word '.repeat(100), 10, 3);
    expect(cut).toHaveLength(3);
    expect(cut[2]).toMatch(/…$/);
    expect(wrapText('مرحبا بالعالم العربي', 8, 5)).toEqual(['مرحبا', 'بالعالم', 'العربي']);
  });

  it('keeps every line of a 40 × 12 map inside its column at 12px', () => {
    const svg = renderJourneyMap({ content: largeJourneyContent(40, 12), label: 'Large', publishedAt: null, locale: 'en' });
    const width = Number(/width="(\d+)"/.exec(svg)?.[1]);
    expect(width).toBe(16 + 168 + 40 * 200 + 16);
    const perLine = charactersPerLine(200 - 16, 12);
    const cellTexts = [...svg.matchAll(/<tspan x="[\d.]+" dy="\d+">([^<]*)<\/tspan>/g)].map((match) => match[1] ?? '');
    expect(cellTexts.length).toBeGreaterThan(40 * 12);
    for (const text of cellTexts) expect([...text.replaceAll('&amp;', '&')].length).toBeLessThanOrEqual(Math.max(perLine, 60));
    expect(svg).not.toMatch(/font-size="([0-9]|1[01])"/);
    expect(svg).toContain('…');
  });
});
