/**
 * The journey map seen the way a person sees it: Chromium parses the SVG, draws it, and the picture
 * is not blank. Without Chromium (`apt-get install -y chromium`; `.ci/run` installs it) this file
 * says so in one line and skips itself only.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderJourneyMap } from '../../lib/journeys/map-svg/render.ts';
import { chromiumAvailable, dumpDom, screenshot } from '../support/chromium.ts';
import { largeJourneyContent, sampleJourneyContent } from '../support/journey-map-sample.ts';
import { decodePng, distinctColours } from '../support/png.ts';

const available = chromiumAvailable();
if (!available)
  console.warn('SKIPPED journeys-map-chromium: no `chromium` binary (apt-get install -y chromium), the map was not looked at');

const dir = mkdtempSync(join(tmpdir(), 'journey-map-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, svg: string): { file: string; width: number; height: number } {
  const file = join(dir, name);
  writeFileSync(file, svg);
  const size = /width="(\d+)" height="(\d+)"/.exec(svg);
  return { file, width: Number(size?.[1]), height: Number(size?.[2]) };
}

describe.skipIf(!available)('journey map in headless Chromium', () => {
  it.each(['en', 'ar'] as const)(
    'draws a %s map that is not blank, with its stage titles as text and no script',
    async (locale) => {
      const content = sampleJourneyContent();
      content.stages[0] = { ...content.stages[0]!, titleEn: '<script>x()</script>', titleAr: '<script>x()</script>' };
      const { file, width, height } = write(
        `map-${locale}.svg`,
        renderJourneyMap({ content, label: 'Opening', publishedAt: null, locale }),
      );
      const png = join(dir, `map-${locale}.png`);
      await screenshot(file, png, width, height);
      const picture = decodePng(readFileSync(png));
      expect(picture.width).toBe(width);
      expect(distinctColours(picture)).toBeGreaterThan(20);

      const dom = await dumpDom(file);
      expect(dom).toContain('<svg');
      expect(dom).not.toMatch(/<script/i);
      expect(dom).toContain('&lt;script&gt;x()&lt;/script&gt;');
      const titles =
        locale === 'ar'
          ? ['التقديم عبر الإنترنت', 'التحقق من الهوية', 'الاستخدام الأول']
          : ['Apply online', 'Verify identity', 'First use'];
      for (const title of titles) expect(dom).toContain(`>${title}<`);
    },
    120_000,
  );

  it('draws a 40 × 12 map whole, its last stage included', async () => {
    const svg = renderJourneyMap({ content: largeJourneyContent(40, 12), label: 'Large', publishedAt: null, locale: 'en' });
    const { file, width, height } = write('large.svg', svg);
    const png = join(dir, 'large.png');
    await screenshot(file, png, width, height);
    const picture = decodePng(readFileSync(png));
    expect([picture.width, picture.height]).toEqual([width, height]);
    expect(distinctColours(picture)).toBeGreaterThan(20);
    expect(await dumpDom(file)).toContain('Stage 40:');
  }, 180_000);
});
