/**
 * What an agent can open, beside calling tools (MCP resources): the workspace's published
 * knowledge-bank articles, each the live article as Markdown in the language asked
 * (`kb://articles/{articleId}{?lang}`), and a journey version's map as the picture the API draws
 * (`journey://{journeyId}/versions/{versionId}/map.svg{?locale}`). Each list or read is one call to
 * the API with the caller's key, so its permission (`knowledge-bank:read`, `journeys:read`), module
 * and rate limit are the operation's own; `resources/list` pages by the API's own cursor.
 */
import { type McpServer, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { articleMarkdown, type MarkdownArticle } from '../knowledge-bank/markdown.ts';
import type { ApiAnswer, ApiCalls } from './api-calls.ts';
import { refusalOfAnswer } from './tool-calls.ts';

/** Articles per `resources/list` page: the API's own default page. */
const ARTICLES_PER_PAGE = 25;

const ARTICLE_TEMPLATE = 'kb://articles/{articleId}{?lang}';
const JOURNEY_MAP_TEMPLATE = 'journey://{journeyId}/versions/{versionId}/map.svg{?locale}';

/** A refusal the agent reads as the API's code and message (an invalid-params error for a missing record, else an internal one). */
function refused(answer: ApiAnswer, uri: string): ProtocolError {
  const { error, message } = refusalOfAnswer(answer);
  const code = answer.status === 404 || answer.status === 400 ? ProtocolErrorCode.InvalidParams : ProtocolErrorCode.InternalError;
  return new ProtocolError(code, `${error}: ${message}`, { uri, error });
}

function languageOf(value: unknown): 'en' | 'ar' {
  return value === 'ar' ? 'ar' : 'en';
}

/** One segment of a path below the API: what the template matched, encoded (the API's schema judges it). */
const segment = (value: unknown) => encodeURIComponent(String(value));

interface ArticleSummary {
  id: string;
  slug: string;
  titleEn: string | null;
  titleAr: string | null;
  summaryEn: string | null;
  summaryAr: string | null;
  updatedAt: string;
}

/** The published articles as resources, one page; a key without `knowledge-bank:read` (or the module off) has none. */
async function listArticles(api: ApiCalls, cursor: string | undefined) {
  const query = new URLSearchParams({ status: 'published', limit: String(ARTICLES_PER_PAGE), ...(cursor ? { cursor } : {}) });
  const answer = await api.send({ method: 'GET', path: `/knowledge-bank/articles?${query}` });
  if (answer.status === 403) return { resources: [] };
  if (answer.status !== 200) throw refused(answer, 'kb://articles');
  const { articles, pagination } = answer.body as { articles: ArticleSummary[]; pagination: { nextCursor: string | null } };
  return {
    resources: articles.map((article) => ({
      uri: `kb://articles/${article.id}`,
      name: article.slug,
      title: article.titleEn ?? article.titleAr ?? article.slug,
      ...((article.summaryEn ?? article.summaryAr) ? { description: (article.summaryEn ?? article.summaryAr)! } : {}),
      mimeType: 'text/markdown',
      annotations: { audience: ['user', 'assistant'] as ('user' | 'assistant')[], lastModified: article.updatedAt },
    })),
    ...(pagination.nextCursor ? { nextCursor: pagination.nextCursor } : {}),
  };
}

/** The templates `resources/templates/list` shows, and how each is read. */
const TEMPLATES = [
  {
    uriTemplate: ARTICLE_TEMPLATE,
    name: 'knowledge-bank-article',
    title: 'Knowledge-bank article',
    description:
      'A published help article as Markdown, live as readers see it: `lang=en` (the default) or `lang=ar`; a block not yet translated ' +
      'is shown in the other language. Needs knowledge-bank:read.',
    mimeType: 'text/markdown',
  },
  {
    uriTemplate: JOURNEY_MAP_TEMPLATE,
    name: 'journey-map',
    title: 'Journey map picture',
    description:
      "A journey version's map as SVG, as the API draws it (`locale=ar` mirrors it right to left), metric cells over the last 90 days. " +
      'Needs journeys:read.',
    mimeType: 'image/svg+xml',
  },
];

const ARTICLE_URI = /^kb:\/\/articles\/([^/?#]+)$/;
const JOURNEY_MAP_URI = /^journey:\/\/([^/?#]+)\/versions\/([^/?#]+)\/map\.svg$/;

async function readResource(api: ApiCalls, uri: string) {
  let parsed: URL;
  try {
    parsed = new URL(uri);
  } catch {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Resource URI ${uri} is invalid`, { uri });
  }
  const where = `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  const article = ARTICLE_URI.exec(where);
  if (article) {
    const answer = await api.send({ method: 'GET', path: `/knowledge-bank/articles/${segment(article[1])}?view=live` });
    if (answer.status !== 200) throw refused(answer, uri);
    const markdown = articleMarkdown((answer.body as { article: MarkdownArticle }).article, languageOf(parsed.searchParams.get('lang')));
    return { contents: [{ uri, mimeType: 'text/markdown', text: markdown }] };
  }
  const map = JOURNEY_MAP_URI.exec(where);
  if (map) {
    const locale = languageOf(parsed.searchParams.get('locale'));
    const answer = await api.send({
      method: 'GET',
      path: `/journeys/${segment(map[1])}/versions/${segment(map[2])}/map.svg?locale=${locale}`,
      accept: 'image/svg+xml',
    });
    if (answer.status !== 200 || typeof answer.text !== 'string') throw refused(answer, uri);
    return { contents: [{ uri, mimeType: 'image/svg+xml', text: answer.text }] };
  }
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No resource ${uri}: see resources/templates/list`, { uri });
}

/**
 * The three resource requests, on the SDK's own Server. Not through McpServer.registerResource: its
 * `resources/list` joins its templates' lists without a cursor (this one pages by the API's), and its
 * URI template matcher does not match a template whose optional query (`{?lang}`) is absent.
 */
export function registerResources(server: McpServer, api: ApiCalls): void {
  server.server.setRequestHandler('resources/list', async (request) => listArticles(api, request.params?.cursor));
  server.server.setRequestHandler('resources/templates/list', async () => ({ resourceTemplates: TEMPLATES }));
  server.server.setRequestHandler('resources/read', async (request) => readResource(api, request.params.uri));
}
