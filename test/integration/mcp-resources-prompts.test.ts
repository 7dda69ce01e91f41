/**
 * The MCP server's resources and prompts (docs/mcp.md), driven by the official SDK's client: published
 * knowledge-bank articles as Markdown resources paged by cursor, a journey map as an SVG resource, and
 * prompts built from the API's data, each one call to the API under the caller's key.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, clientFor, newKey, newWorkspace, sandbox, type TestWorkspace } from '../support/fixtures.ts';
import { makeJourney } from '../support/journeys.ts';
import { createArticle, createCategory, para, publish } from '../support/knowledge-bank.ts';
import { surveyWithDefinition } from '../support/surveys.ts';

const MCP_URL = new URL(`${sandbox.apiUrl}/mcp`);
let ws: TestWorkspace;
const open: Client[] = [];
const published: { id: string; titleEn: string }[] = [];
let draftId: string;

async function connect(key: string, era: 'legacy' | 'modern' = 'modern'): Promise<Client> {
  const client = new Client(
    { name: 'mcp-resources.test', version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(
    new StreamableHTTPClientTransport(MCP_URL, {
      requestInit: { headers: { Authorization: `Bearer ${key}`, 'X-Service-Workspace-Host': ws.host } },
    }),
  );
  open.push(client);
  return client;
}

beforeAll(async () => {
  ws = await newWorkspace('mcpres');
  const api = clientFor(ws);
  const category = await createCategory(api);
  // 27 published articles (more than one page of 25) and one draft, which is no resource.
  for (let i = 0; i < 27; i++) {
    const titleEn = `Pay invoice ${String(i).padStart(2, '0')}`;
    const article = await createArticle(api, {
      categoryId: category.id,
      titleEn,
      titleAr: `دفع الفاتورة ${i}`,
      summaryEn: 'How to pay',
      blocks: [
        { type: 'heading', level: 2, text: { en: [{ text: 'Steps' }], ar: [{ text: 'الخطوات' }] } },
        { type: 'list', ordered: true, items: [{ en: [{ text: 'Open *Billing*' }], ar: [{ text: 'افتح الفواتير' }] }] },
        para('Only in English'),
      ],
    });
    await publish(api, article.id);
    published.push({ id: article.id, titleEn });
  }
  draftId = (await createArticle(api, { categoryId: category.id, titleEn: 'Not yet' })).id;
}, 240_000);

afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
});

describe('knowledge-bank articles as resources', () => {
  it.each(['legacy', 'modern'] as const)('lists every published article (%s era), never a draft', async (era) => {
    const client = await connect(ws.key, era);
    // The SDK's client follows nextCursor itself when given none.
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri).sort()).toEqual(published.map((article) => `kb://articles/${article.id}`).sort());
    expect(resources[0]).toMatchObject({ mimeType: 'text/markdown', title: expect.stringMatching(/^Pay invoice/) });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      'kb://articles/{articleId}{?lang}',
      'journey://{journeyId}/versions/{versionId}/map.svg{?locale}',
    ]);
  });

  it('pages resources/list by the API’s cursor, 25 at a time', async () => {
    const list = (params: Record<string, unknown>) =>
      call('POST', '/mcp', { host: ws.host, key: ws.key, body: { jsonrpc: '2.0', id: 1, method: 'resources/list', params } });
    const first = (await list({})).body.result;
    expect(first.resources).toHaveLength(25);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = (await list({ cursor: first.nextCursor })).body.result;
    expect(second.resources).toHaveLength(2);
    expect(second.nextCursor).toBeUndefined();
    expect(new Set([...first.resources, ...second.resources].map((r: { uri: string }) => r.uri)).size).toBe(27);
  });

  it('reads the live article as Markdown, in Arabic when asked, a block not yet translated in English', async () => {
    const client = await connect(ws.key);
    const { id } = published[0]!;
    const english = await client.readResource({ uri: `kb://articles/${id}` });
    expect(english.contents[0]).toMatchObject({ mimeType: 'text/markdown' });
    expect((english.contents[0] as { text: string }).text).toBe(
      '# Pay invoice 00\n\nHow to pay\n\n## Steps\n\n1. Open \\*Billing\\*\n\nOnly in English\n',
    );
    const arabic = (await client.readResource({ uri: `kb://articles/${id}?lang=ar` })).contents[0] as { text: string };
    expect(arabic.text).toMatch(/^# دفع الفاتورة 0\n/);
    expect(arabic.text).toContain('## الخطوات');
    expect(arabic.text).toContain('Only in English');
    await expect(client.readResource({ uri: `kb://articles/${draftId}` })).rejects.toThrow(/not_found/);
  });

  it('shows no article to a key without knowledge-bank:read, and refuses its read with the API’s code', async () => {
    const noKb = await newKey(ws.slug, ['ideas:read']);
    const client = await connect(noKb.key);
    expect((await client.listResources()).resources).toEqual([]);
    await expect(client.readResource({ uri: `kb://articles/${published[0]!.id}` })).rejects.toThrow(/missing_permission/);
  });

  it("reads a journey version's map as the SVG the API draws", async () => {
    const made = await makeJourney(clientFor(ws), 'Onboarding map');
    const client = await connect(ws.key);
    const { contents } = await client.readResource({ uri: `journey://${made.journeyId}/versions/${made.versionId}/map.svg?locale=ar` });
    expect(contents[0]).toMatchObject({ mimeType: 'image/svg+xml' });
    const rest = await clientFor(ws).get(`/journeys/${made.journeyId}/versions/${made.versionId}/map.svg?locale=ar`);
    expect(rest.text).toMatch(/<svg/);
    expect((contents[0] as { text: string }).text).toBe(rest.text);
  });
});

describe('prompts built from the API’s data', () => {
  it('lists three prompts with their arguments described', async () => {
    const client = await connect(ws.key);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual([
      'triage_new_ideas',
      'summarise_survey_responses',
      'draft_help_article_from_idea',
    ]);
    for (const prompt of prompts) {
      expect(prompt.description).toBeTruthy();
      for (const argument of prompt.arguments ?? []) expect(argument.description, `${prompt.name} ${argument.name}`).toBeTruthy();
    }
    expect(prompts[1]!.arguments).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'surveyId', required: true })]));
  });

  it('builds each from one read of the workspace: new ideas, a survey summary, an idea', async () => {
    const api = clientFor(ws);
    const idea = (await api.post('/ideas', { body: { title: 'Export invoices as PDF', description: 'Accountants ask for it' } })).body.data;
    const client = await connect(ws.key);
    const triage = await client.getPrompt({ name: 'triage_new_ideas', arguments: { limit: '10' } });
    expect((triage.messages[0]!.content as { text: string }).text).toContain('Export invoices as PDF');
    const draft = await client.getPrompt({ name: 'draft_help_article_from_idea', arguments: { ideaId: idea.id } });
    expect((draft.messages[0]!.content as { text: string }).text).toMatch(/Accountants ask for it[\s\S]*/);
    const { surveyId } = await surveyWithDefinition(api);
    const summary = await client.getPrompt({ name: 'summarise_survey_responses', arguments: { surveyId } });
    expect((summary.messages[0]!.content as { text: string }).text).toMatch(/"started": 0/);
    await expect(client.getPrompt({ name: 'draft_help_article_from_idea', arguments: { ideaId: 'no-such-idea' } })).rejects.toThrow(
      /not_found/,
    );
  });
});
