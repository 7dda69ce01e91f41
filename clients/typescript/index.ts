/**
 * A typed client of the Customer Experience Portal API: openapi-fetch over the types generated
 * from the OpenAPI document, so paths, parameters, bodies and responses are checked by the compiler.
 *
 *   const api = createPortalClient({ baseUrl, workspaceHost, key });
 *   const { data, error } = await api.GET('/ideas', { params: { query: { limit: 100 } } });
 */
import createClient, { type Client } from 'openapi-fetch';
import type { paths, webhooks } from './generated/schema.ts';

// `paths`, `operations`, `components`, `webhooks`, and every record, shared shape and webhook event
// of the document by its name (`Idea`, `Survey`, `Pagination`, `IdeaStatusChangedEvent`…: its
// components.schemas).
export type * from './generated/schema.ts';

/**
 * The body of a webhook delivery (the document's `webhooks` section): any event, or the one named,
 * e.g. `WebhookEvent<'idea.status_changed'>`. Narrow a received one by its `type`:
 *
 *   const event = JSON.parse(rawBody) as WebhookEvent;   // after verifying its signature
 *   if (event.type === 'idea.status_changed') console.log(event.data.previousStatus, '→', event.data.status);
 */
export type WebhookEvent<Type extends keyof webhooks = keyof webhooks> = {
  [T in Type]: NonNullable<webhooks[T]['post']> extends { requestBody: { content: { 'application/json': infer Body } } } ? Body : never;
}[Type];

export interface PortalClientOptions {
  /** e.g. `http://127.0.0.1:3000/api/v1` (the sandbox) or `https://acme.portal.example.com/api/v1`. */
  baseUrl: string;
  /** `X-Service-Workspace-Host`, e.g. `acme.portal.example.com`; omit when `baseUrl` is the workspace host itself. */
  workspaceHost?: string;
  /** A Developer key, `cxk_…`. */
  key: string;
  /** A custom fetch (tests, retries, proxies). */
  fetch?: typeof globalThis.fetch;
}

export type PortalClient = Client<paths>;

export function createPortalClient(options: PortalClientOptions): PortalClient {
  return createClient<paths>({
    baseUrl: options.baseUrl,
    headers: {
      Authorization: `Bearer ${options.key}`,
      ...(options.workspaceHost ? { 'X-Service-Workspace-Host': options.workspaceHost } : {}),
    },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

/**
 * Every record of a list, page after page by cursor (each page reads only itself): a full sync.
 * `page` fetches one page given the cursor of the previous one (undefined first).
 */
export async function* allPages<T>(
  page: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor: string | null | undefined }>,
): AsyncGenerator<T> {
  let cursor: string | undefined;
  do {
    const { items, nextCursor } = await page(cursor);
    yield* items;
    cursor = nextCursor ?? undefined;
  } while (cursor !== undefined);
}
