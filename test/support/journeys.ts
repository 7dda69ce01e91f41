/** Builders for the Journeys tests: journeys made over HTTP, sample content, ETags. */
import { expect } from 'vitest';
import type { ApiResponse, clientFor } from './fixtures.ts';

export type Api = ReturnType<typeof clientFor>;

/**
 * The first request of a new rate-limit window costs one more DynamoDB call (it resets the key's
 * counter): before counting calls, wait until at least `seconds` remain in the current window.
 */
export async function insideOneRateLimitWindow(api: Api, seconds = 20): Promise<void> {
  const probe = await api.get('/journeys?limit=1');
  const reset = Number(probe.headers.get('ratelimit-reset'));
  if (reset < seconds) {
    await new Promise((resolve) => setTimeout(resolve, (reset + 0.5) * 1000));
    await api.get('/journeys?limit=1');
  }
}

export function etagOf(res: ApiResponse): string {
  const etag = res.headers.get('etag');
  if (!etag) throw new Error(`No ETag on ${res.status} ${res.text}`);
  return etag;
}

export interface MadeJourney {
  journeyId: string;
  versionId: string;
}

export async function makeJourney(api: Api, title = 'Onboarding'): Promise<MadeJourney> {
  const res = await api.post('/journeys', { body: { titleEn: title, titleAr: 'رحلة' } });
  expect(res.status, res.text).toBe(200);
  return { journeyId: res.body.journeyId, versionId: res.body.version.id };
}

export async function makeMicroJourney(api: Api, parentId: string, title = 'Sign-up'): Promise<MadeJourney> {
  const res = await api.post(`/journeys/${parentId}/micro-journeys`, { body: { titleEn: title, titleAr: 'تسجيل' } });
  expect(res.status, res.text).toBe(200);
  return { journeyId: res.body.journeyId, versionId: res.body.version.id };
}

/** Saves content at the version's current revision (read first) and returns the response. */
export async function save(api: Api, made: MadeJourney, content: unknown): Promise<ApiResponse> {
  const current = await api.get(`/journeys/${made.journeyId}/versions/${made.versionId}`);
  return api.put(`/journeys/${made.journeyId}/versions/${made.versionId}/content`, {
    body: { content },
    headers: { 'If-Match': etagOf(current) },
  });
}

export async function publish(api: Api, made: MadeJourney): Promise<ApiResponse> {
  const current = await api.get(`/journeys/${made.journeyId}/versions/${made.versionId}`);
  return api.post(`/journeys/${made.journeyId}/versions/${made.versionId}/publish`, { headers: { 'If-Match': etagOf(current) } });
}

/** Consistent, fully translated content: no diagnostics at all. */
export function cleanContent(pairs: { journeyId: string; versionId?: string }[] = []) {
  return {
    schema: 1,
    stages: [
      { id: 'discover', titleEn: 'Discover', titleAr: 'اكتشاف', microJourneyPairs: pairs },
      { id: 'buy', titleEn: 'Buy', titleAr: 'شراء', microJourneyPairs: [] },
    ],
    rows: [
      { id: 'feel', type: 'emotion', titleEn: 'Feeling', titleAr: 'شعور' },
      { id: 'via', type: 'channels', titleEn: 'Channels', titleAr: 'قنوات' },
    ],
    cells: {
      'feel:discover': { score: 1, noteEn: 'Curious', noteAr: 'فضولي' },
      'via:buy': { channels: ['web', 'branch'] },
    },
  };
}

/** Content of roughly `bytes` UTF-8 bytes that compresses like real text (varied words, not one repeated character). */
export function largeContent(bytes: number) {
  const words = ['arrive', 'queue', 'wait', 'call', 'agent', 'form', 'sign', 'pay', 'confirm', 'leave', 'happy', 'lost', 'branch', 'app'];
  const cells: Record<string, { textEn: string; textAr: string }> = {};
  let size = 0;
  let seed = 7;
  for (let i = 0; size < bytes; i++) {
    let text = '';
    while (text.length < 900) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      text += `${words[seed % words.length]} ${seed % 997} `;
    }
    cells[`row${i % 50}:stage${Math.floor(i / 50)}`] = { textEn: text, textAr: text };
    size += text.length * 2 + 40;
  }
  const stageCount = Math.ceil(Object.keys(cells).length / 50);
  return {
    schema: 1,
    stages: Array.from({ length: stageCount }, (_, i) => ({
      id: `stage${i}`,
      titleEn: `Stage ${i}`,
      titleAr: `مرحلة ${i}`,
      microJourneyPairs: [],
    })),
    rows: Array.from({ length: 50 }, (_, i) => ({ id: `row${i}`, type: 'text', titleEn: `Row ${i}`, titleAr: `صف ${i}` })),
    cells,
  };
}
