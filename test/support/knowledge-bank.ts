/** Builders for the knowledge-bank integration tests: a workspace, keys by role, categories, articles. */
import { type ApiResponse, call, clientFor, newKey, newWorkspace, type TestWorkspace } from './fixtures.ts';

export type Api = ReturnType<typeof clientFor>;

export interface KbWorkspace extends TestWorkspace {
  /** All permissions. */
  writer: Api;
  /** knowledge-bank:read only. */
  reader: Api;
}

export async function kbWorkspace(prefix = 'kb'): Promise<KbWorkspace> {
  const ws = await newWorkspace(prefix);
  const readKey = await newKey(ws.slug, ['knowledge-bank:read']);
  return { ...ws, writer: clientFor(ws), reader: clientFor({ host: ws.host, key: readKey.key }) };
}

function expectStatus(res: ApiResponse, status: number, what: string): ApiResponse {
  if (res.status !== status) throw new Error(`${what} failed: ${res.status} ${res.text}`);
  return res;
}

export async function createCategory(api: Api, body: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await api.post('/knowledge-bank/categories', { body: { nameEn: 'Billing', ...body } });
  return expectStatus(res, 201, 'Creating a category').body.category;
}

export async function createArticle(api: Api, body: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await api.post('/knowledge-bank/articles', { body: { titleEn: 'How to pay an invoice', ...body } });
  return expectStatus(res, 201, 'Creating an article').body.article;
}

export async function saveDraft(api: Api, id: string, body: Record<string, unknown>, etag = '*'): Promise<ApiResponse> {
  return api.put(`/knowledge-bank/articles/${id}/draft`, { body, headers: { 'If-Match': etag } });
}

export async function publish(api: Api, id: string): Promise<Record<string, any>> {
  const res = await api.post(`/knowledge-bank/articles/${id}/publish`);
  return expectStatus(res, 200, 'Publishing').body.article;
}

export const para = (en?: string, ar?: string, id?: string) => ({
  ...(id ? { id } : {}),
  type: 'paragraph',
  text: { ...(en !== undefined ? { en: [{ text: en }] } : {}), ...(ar !== undefined ? { ar: [{ text: ar }] } : {}) },
});

export const linkTo = (articleId: string, id?: string) => ({
  ...(id ? { id } : {}),
  type: 'paragraph',
  text: { en: [{ text: 'See ' }, { text: 'this article', link: { articleId } }] },
});

/** Wait, if needed, so the next requests fall in one rate-limit window (its first request costs one more DynamoDB call). */
export async function insideOneRateLimitWindow(ws: TestWorkspace, seconds = 10): Promise<void> {
  const probe = await call('GET', '/knowledge-bank/categories', { host: ws.host, key: ws.key });
  const reset = Number(probe.headers.get('ratelimit-reset'));
  if (reset < seconds) {
    await new Promise((resolve) => setTimeout(resolve, (reset + 0.5) * 1000));
    await call('GET', '/knowledge-bank/categories', { host: ws.host, key: ws.key });
  }
}
