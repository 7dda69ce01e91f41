/**
 * `npm run docs:map-screenshots`: draws the sample journey map in English and Arabic and
 * photographs each in headless Chromium (Debian's `chromium` package), writing
 * docs/journey-map-en.png and docs/journey-map-ar.png, the pictures docs/journeys.md shows.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { renderJourneyMap } from '../lib/journeys/map-svg/render.ts';
import { screenshot } from '../test/support/chromium.ts';
import { sampleJourneyContent } from '../test/support/journey-map-sample.ts';

const dir = mkdtempSync(join(tmpdir(), 'journey-map-'));
try {
  for (const locale of ['en', 'ar'] as const) {
    const svg = renderJourneyMap({
      content: sampleJourneyContent(),
      label: locale === 'ar' ? 'رحلة فتح الحساب' : 'Opening an account',
      publishedAt: '2026-11-24T09:00:00.000Z',
      locale,
      readings: new Map(),
    });
    const file = join(dir, `map-${locale}.svg`);
    writeFileSync(file, svg);
    const size = /width="(\d+)" height="(\d+)"/.exec(svg);
    const target = resolve(`docs/journey-map-${locale}.png`);
    await screenshot(file, target, Number(size?.[1]), Number(size?.[2]));
    console.log(`wrote ${target}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
