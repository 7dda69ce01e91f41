/** GET …/versions/{versionId}/map.svg over HTTP: the picture, its headers, its languages, its errors. */
import { beforeAll, describe, expect, it } from 'vitest';
import { AUTH_CALLS, clientFor, dynamoDbCalls, expectErrorEnvelope, newWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { type Api, cleanContent, insideOneRateLimitWindow, type MadeJourney, makeJourney, publish, save } from '../support/journeys.ts';

let ws: TestWorkspace;
let api: Api;
let made: MadeJourney;

const picturePath = (m: MadeJourney, query = '') => `/journeys/${m.journeyId}/versions/${m.versionId}/map.svg${query}`;

beforeAll(async () => {
  ws = await newWorkspace('journeys-map');
  api = clientFor(ws);
  made = await makeJourney(api);
  const content = cleanContent();
  content.stages[1] = { ...content.stages[1]!, titleEn: '<script>alert(1)</script>' };
  expect((await save(api, made, content)).status).toBe(200);
  expect((await publish(api, made)).status).toBe(200);
});

describe('GET …/map.svg', () => {
  it('answers an SVG that forbids scripts and sniffing, with every text escaped, for one GetItem', async () => {
    await insideOneRateLimitWindow(api);
    const res = await api.get(picturePath(made));
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(res.text).toContain('>Discover<');
    expect(res.text).not.toContain('<script');
    expect(res.text).toContain('&lt;script&gt;');
    expect(res.text).toMatch(/Published \d{4}-\d{2}-\d{2}/);
    expect(dynamoDbCalls(res)).toBe(AUTH_CALLS + 1);
  });

  it('mirrors the stages for locale=ar and uses the Arabic titles', async () => {
    const res = await api.get(picturePath(made, '?locale=ar'));
    expect(res.status, res.text).toBe(200);
    const x = (title: string) => Number(new RegExp(`<tspan x="([\\d.]+)" dy="0">${title}<`).exec(res.text)?.[1]);
    expect(x('اكتشاف')).toBeGreaterThan(x('شراء'));
    expect(res.text).not.toContain('>Discover<');
  });

  it('refuses a locale it does not draw and dates out of order, as JSON errors', async () => {
    expectErrorEnvelope(await api.get(picturePath(made, '?locale=fr')), 400, 'invalid_query');
    expectErrorEnvelope(await api.get(picturePath(made, '?from=2026-05-02&to=2026-05-01')), 400, 'invalid_query');
  });

  it("is a 404 for an unknown version and for another workspace's journey", async () => {
    expectErrorEnvelope(await api.get(picturePath({ ...made, versionId: '00000000-0000-4000-8000-000000000000' })), 404, 'not_found');
    const other = clientFor(await newWorkspace('journeys-map-other'));
    const res = await other.get(picturePath(made));
    expectErrorEnvelope(res, 404, 'not_found');
    expect(res.headers.get('content-type')).toContain('application/json');
  });
});
