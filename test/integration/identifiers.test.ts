/**
 * The identifier rule (lib/platform/identifiers.ts) where people type identifiers, over HTTP and
 * through cxctl: the slugs and labels issue 27 item 15 found coexisting with their look-alikes, and
 * issue 37 item 9's mixed number systems and scripts written with combining marks.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { clientFor, expectErrorEnvelope } from '../support/fixtures.ts';
import { ideasWorkspace } from '../support/ideas.ts';
import { createCategory, type KbWorkspace, kbWorkspace } from '../support/knowledge-bank.ts';

let ws: KbWorkspace;
let categoryId: string;

beforeAll(async () => {
  ws = await kbWorkspace('ids');
  categoryId = (await createCategory(ws.writer, { nameEn: 'Accounts' })).id;
});

const article = (slug: string, titleEn = 'Reset your password') =>
  ws.writer.post('/knowledge-bank/articles', { body: { categoryId, titleEn, slug } });

const issuePaths = (res: { body: { issues?: { path: string; message: string }[] } }) =>
  (res.body.issues ?? []).map((issue) => `${issue.path}: ${issue.message}`);

describe('article and category slugs', () => {
  it('refuses a slug with an invisible filler beside the same slug without it, and a filler alone', async () => {
    const plain = await article('reset-your-password');
    expect(plain.status, plain.text).toBe(201);
    for (const hidden of ['reset-your-password\u3164', '\u3164', '\uFFA0', 'reset-\u200Byour-password']) {
      const res = await article(hidden);
      expectErrorEnvelope(res, 400, 'invalid_body');
      expect(issuePaths(res).join()).toMatch(/^body\.slug: contains U\+[0-9A-F]{4}, an invisible or control character/);
    }
  });

  it('refuses a word mixing Latin with a Cyrillic look-alike, and a bidi control', async () => {
    const cyrillic = await article('passw\u043Erd');
    expectErrorEnvelope(cyrillic, 400, 'invalid_body');
    expect(issuePaths(cyrillic).join()).toContain('mixes the letters of several scripts');
    const reordered = await article('\u202Eweb');
    expectErrorEnvelope(reordered, 400, 'invalid_body');
    expect(issuePaths(reordered).join()).toContain('U+202E, a bidirectional control character');
  });

  it('stores compatibility forms and decomposed letters as the plain slug, so they clash with it', async () => {
    const fullwidth = await article('step-\uFF13');
    expect(fullwidth.body.article?.slug, fullwidth.text).toBe('step-3');
    expectErrorEnvelope(await article('step-3'), 409, 'slug_taken');

    const ligature = await article('\uFB00-\u{1D41A}\u{1D41B}');
    expect(ligature.body.article?.slug, ligature.text).toBe('ff-ab');

    const decomposed = await article('cafe\u0301');
    expect(decomposed.body.article?.slug, decomposed.text).toBe('café');
    expectErrorEnvelope(await article('café'), 409, 'slug_taken');
  });

  it('keeps a title as typed and makes its slug without the invisible characters', async () => {
    const title = 'Close your account\u3164';
    const res = await ws.writer.post('/knowledge-bank/articles', { body: { categoryId, titleEn: title } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.article).toMatchObject({ titleEn: title, slug: 'close-your-account' });
  });

  it('holds categories to the same rule, on create and on change', async () => {
    expectErrorEnvelope(
      await ws.writer.post('/knowledge-bank/categories', { body: { nameEn: 'Billing', slug: 'billing\u3164' } }),
      400,
      'invalid_body',
    );
    const made = await ws.writer.post('/knowledge-bank/categories', { body: { nameEn: 'Billing', slug: '\uFF42illing' } });
    expect(made.body.category?.slug, made.text).toBe('billing');
    const changed = await ws.writer.patch(`/knowledge-bank/categories/${made.body.category.id}`, {
      body: { slug: 'bi\u0456lling' },
      headers: { 'If-Match': made.headers.get('etag')! },
    });
    expectErrorEnvelope(changed, 400, 'invalid_body');
  });
});

describe('slugs of other number systems and of scripts written with marks (issue 37, item 9)', () => {
  it('refuses digits of two number systems in one slug, beside the slug of either', async () => {
    expect((await article('12-release')).status).toBe(201);
    const mixed = await article('\u06612-release');
    expectErrorEnvelope(mixed, 400, 'invalid_body');
    expect(issuePaths(mixed).join()).toMatch(/^body\.slug: mixes the digits of several number systems \(U\+0661 and U\+0032\)/);
    const arabicIndic = await article('\u0661\u0662-release');
    expect([arabicIndic.status, arabicIndic.body.article?.slug], arabicIndic.text).toEqual([201, '\u0661\u0662-release']);
  });

  it('takes Devanagari, Thai and vocalised Arabic slugs as typed, and refuses a mark on no letter of its script', async () => {
    for (const slug of ['नमस्ते', 'สวัสดี-ภาษาไทย', 'مَرْحَبًا']) {
      const res = await article(slug);
      expect([res.status, res.body.article?.slug], res.text).toEqual([201, slug]);
    }
    for (const [slug, reason] of [
      ['\u093Eनम', 'contains U+093E, a combining mark with no letter before it'],
      ['reset\u093E', 'contains U+093E, a mark of another script than the letter U+0074 it follows'],
    ]) {
      const res = await article(slug!);
      expectErrorEnvelope(res, 400, 'invalid_body');
      expect(issuePaths(res).join()).toContain(`body.slug: ${reason}`);
    }
  });

  it('makes a title’s slug with its marks: a Devanagari title is no longer cut at its vowel signs', async () => {
    const res = await ws.writer.post('/knowledge-bank/articles', { body: { categoryId, titleEn: 'नमस्ते दुनिया ३' } });
    expect([res.status, res.body.article?.slug], res.text).toEqual([201, 'नमस्ते-दुनिया-3']);
  });
});

describe('idea statuses and modules', () => {
  it('names a configured status in any normal form, and stores the configured one', async () => {
    const ideas = await ideasWorkspace('ids-ideas');
    const api = clientFor(ideas);
    const created = await api.post('/ideas', { body: { title: 'Dark mode', status: '\uFF4E\uFF45\uFF57', module: 'mobile\u2011app' } });
    // U+2011 (a non-breaking hyphen) is not a compatibility form of "-": it stays, and is no configured module.
    expectErrorEnvelope(created, 400, 'invalid_body');
    const ok = await api.post('/ideas', { body: { title: 'Dark mode', status: '\uFF4E\uFF45\uFF57' } });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.data.status).toBe('new');
    expectErrorEnvelope(await api.post('/ideas', { body: { title: 'Dark mode', status: 'new\u3164' } }), 400, 'invalid_body');
  });
});
