/** The MCP server's tools follow from the manifest by one rule (lib/mcp/tool-rule.ts), with inputs from the routes' own schemas. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { routes } from '../../lib/manifest.ts';
import { agentAccessOf } from '../../lib/mcp/tool-rule.ts';
import { agentTools, toolNameOf, toolsOfGrant } from '../../lib/mcp/tools.ts';
import { DEFAULT_PERMISSIONS, MODULES, PERMISSIONS } from '../../lib/platform/permissions.ts';
import { defineRoute, type RouteDefinition } from '../../lib/platform/route.ts';

const tools = agentTools(routes);
const byName = new Map(tools.map((tool) => [tool.name, tool]));
const withheld = (operationId: string) => {
  const access = agentAccessOf(routes.find((r) => r.operationId === operationId)!, routes);
  return 'withheld' in access ? access.withheld : undefined;
};

describe('the MCP tool rule', () => {
  it('gives an agent the reads and safe writes the issue names: ideas, survey summaries, journeys, the knowledge bank', () => {
    for (const name of ['list_ideas', 'get_idea', 'get_survey_summary', 'list_journeys', 'get_journey_version', 'search_knowledge_bank']) {
      expect(byName.get(name)?.access, name).toBe('read');
    }
    for (const name of ['create_idea', 'update_idea', 'publish_knowledge_bank_article', 'save_knowledge_bank_draft', 'submit_sop']) {
      expect(byName.get(name)?.access, name).toBe('write');
    }
    // A POST that needs only a read permission changes nothing: it is a read.
    expect(byName.get('validate_survey_definition')?.access).toBe('read');
    expect(byName.get('simulate_survey_version')?.annotations.readOnlyHint).toBe(true);
  });

  it('withholds what destroys, approves, reaches personal data or sets up an integration, with the reason', () => {
    expect(withheld('deleteIdea')).toMatch(/destroys/);
    expect(withheld('archiveSurvey')).toMatch(/destroys/);
    expect(withheld('deleteJourneyVersion')).toMatch(/DELETE/);
    expect(withheld('approveSop')).toMatch(/sign-off/);
    expect(withheld('sendBackSop')).toMatch(/sign-off/);
    expect(withheld('listSurveyResponses')).toMatch(/personal data/);
    expect(withheld('eraseSurveyRespondent')).toMatch(/personal data/);
    expect(withheld('createSurveyExport')).toMatch(/personal data/);
    for (const op of ['voteOnIdea', 'listIdeaVotes', 'createIdeaComment', 'listIdeaComments', 'updateIdeaComment']) {
      expect(withheld(op), op).toMatch(/personal data/);
    }
    expect(withheld('listWebhooks')).toMatch(/outside address/);
    expect(withheld('createWebhook')).toMatch(/outside address/);
    expect(withheld('replaceIdea')).toMatch(/PATCH/);
    expect(withheld('getJourneyMapPicture')).toMatch(/image\/svg\+xml/);
    expect(withheld('getMe')).toMatch(/no permission/);
    expect(withheld('getOpenApiDocument')).toMatch(/not an operation of a workspace/);
    expect(withheld('callMcpServer')).toMatch(/not an operation of a workspace/);
    for (const tool of tools) {
      expect(tool.route.method, tool.name).not.toBe('DELETE');
      expect(
        tool.route.permissions.some((p) => /^(webhooks|survey-responses):|:(delete|approve)$/.test(p)),
        tool.name,
      ).toBe(false);
    }
  });

  it('makes a new operation a tool (or not) by what it is, without listing it anywhere', () => {
    const base = {
      handler: 'functions/x.ts',
      tag: 'Ideas',
      summary: 'X',
      module: 'ideas',
      response: { status: 200, body: z.object({}) },
    } as const;
    const read = defineRoute({
      ...base,
      operationId: 'getIdeaScore',
      method: 'GET',
      path: '/ideas/{id}/score',
      permissions: ['ideas:read'],
    });
    const gone = defineRoute({ ...base, operationId: 'purgeIdeas', method: 'POST', path: '/ideas/purge', permissions: ['ideas:delete'] });
    const more = agentTools([...routes, read, gone] as RouteDefinition[]);
    expect(more.find((tool) => tool.name === 'get_idea_score')?.access).toBe('read');
    expect(more.some((tool) => tool.name === 'purge_ideas')).toBe(false);
  });
});

describe('the MCP tools', () => {
  it('are named for a model (snake case, MCP name characters, unique) and described with their permission', () => {
    expect(toolNameOf('searchKnowledgeBank')).toBe('search_knowledge_bank');
    expect(new Set(tools.map((tool) => tool.name)).size).toBe(tools.length);
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[a-z][a-z0-9_]{0,127}$/);
      expect(tool.description).toContain(`Needs the permission ${tool.route.permissions.join(' and ')}`);
      expect(tool.title).toBe(tool.route.summary);
    }
  });

  it('take the path and query parameters as arguments, the body under `body`, If-Match as `ifMatch`, and nothing else', () => {
    const patch = byName.get('update_idea')!;
    expect(patch.inputSchema).toMatchObject({ type: 'object', additionalProperties: false, required: ['id', 'body'] });
    expect(Object.keys(patch.inputSchema.properties as object).sort()).toEqual(['body', 'id', 'ifMatch']);
    // A route that requires If-Match requires `ifMatch`.
    expect(byName.get('save_knowledge_bank_draft')!.inputSchema.required).toEqual(['articleId', 'body', 'ifMatch']);
    expect(byName.get('publish_knowledge_bank_article')!.inputSchema.required).toEqual(['articleId']);
    const list = byName.get('list_ideas')!;
    expect(list.inputSchema.properties).toMatchObject({ limit: { type: 'integer', default: 25, maximum: 100 } });
    expect(list.inputSchema.required).toBeUndefined();
    expect(Object.keys(byName.get('create_idea')!.inputSchema.properties as object).sort()).toEqual(['body', 'idempotencyKey']);
  });

  it('are shown to a key only where it holds every permission and the module is on', () => {
    const readOnly = toolsOfGrant(tools, { permissions: DEFAULT_PERMISSIONS, modules: MODULES });
    expect(readOnly.length).toBeGreaterThan(20);
    expect(readOnly.every((tool) => tool.access === 'read')).toBe(true);
    const everything = toolsOfGrant(tools, { permissions: PERMISSIONS, modules: MODULES });
    expect(everything).toEqual(tools);
    const noKnowledgeBank = toolsOfGrant(tools, { permissions: PERMISSIONS, modules: MODULES.filter((m) => m !== 'knowledge-bank') });
    expect(noKnowledgeBank.some((tool) => tool.route.module === 'knowledge-bank')).toBe(false);
    // Not list_idea_votes nor list_idea_comments: a customer's vote and words are personal data.
    expect(toolsOfGrant(tools, { permissions: ['ideas:read'], modules: MODULES }).map((tool) => tool.name)).toEqual([
      'find_similar_ideas',
      'get_idea',
      'get_idea_labels',
      'list_ideas',
    ]);
  });

  // Ideas: 5 tools in under 8 KB until issue 39 added merge_idea, unmerge_idea and find_similar_ideas: 1.5 KB a tool, as before.
  it("fit an agent's context: every tool of every permission in under 160 KB of tools/list, ideas alone under 1.5 KB a tool", () => {
    const size = (list: typeof tools) =>
      JSON.stringify(
        list.map(({ name, title, description, inputSchema, annotations }) => ({ name, title, description, inputSchema, annotations })),
      ).length;
    expect(size(tools)).toBeLessThan(160_000);
    const ideas = tools.filter((tool) => tool.route.module === 'ideas');
    expect(ideas.map((tool) => tool.name).sort()).toEqual([
      'create_idea',
      'find_similar_ideas',
      'get_idea',
      'get_idea_labels',
      'list_ideas',
      'merge_idea',
      'unmerge_idea',
      'update_idea',
    ]);
    expect(size(ideas)).toBeLessThan(1_500 * ideas.length);
  });
});

describe('docs/mcp.md', () => {
  it('lists exactly the tools the rule gives, with their kind and permission', () => {
    const guide = readFileSync(resolve(import.meta.dirname, '../../docs/mcp.md'), 'utf8');
    const table = guide.slice(guide.indexOf('<!-- tools:'));
    const rows = [...table.matchAll(/^\| `(\w+)` \| (read|write) \| ([^|]+) \|$/gm)].map((m) => [m[1], m[2], m[3]!.trim()]);
    expect(rows).toEqual(tools.map((tool) => [tool.name, tool.access, tool.route.permissions.join(', ')]));
  });
});

describe('the MCP route in the OpenAPI document', () => {
  it('declares every status it can answer: 200, 202 for a notification, 406 and the JSON-RPC 400 beside the envelope’s', async () => {
    const { apiDocument } = await import('../../lib/api-document.ts');
    const operation = (apiDocument() as any).paths['/mcp'].post;
    // 503 service_busy (with Retry-After) is every keyed operation's answer to DynamoDB throttling after the retries (issue 37).
    expect(Object.keys(operation.responses).sort()).toEqual(['200', '202', '400', '401', '403', '404', '406', '415', '429', '502', '503']);
    expect(operation.responses['202'].content).toBeUndefined();
    expect(operation.responses['406'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/McpErrorResponse' });
    expect(operation.responses['400'].content['application/json'].schema.anyOf).toEqual([
      { $ref: '#/components/schemas/Error' },
      { $ref: '#/components/schemas/McpErrorResponse' },
    ]);
  });
});

describe('tool annotations a client can trust, held to each tool’s route', () => {
  it.each(tools.map((tool) => [tool.name, tool] as const))('%s', (_, tool) => {
    const { route, annotations } = tool;
    expect(tool.title).toBe(route.summary);
    // A GET only reads; a POST whose every permission is a `:read` (validate, simulate) too.
    if (route.method === 'GET') expect(annotations.readOnlyHint).toBe(true);
    expect(annotations.readOnlyHint).toBe(route.permissions.every((permission) => permission.endsWith(':read')));
    expect(annotations.openWorldHint).toBe(false);
    if (annotations.readOnlyHint) {
      expect(annotations.destructiveHint).toBeUndefined();
      return;
    }
    const replaces = route.method === 'PUT' || route.method === 'PATCH';
    const changesWhatIsLive = /^(publish|unpublish|restore|close)[A-Z]/.test(route.operationId);
    expect(annotations.destructiveHint).toBe(replaces || changesWhatIsLive);
    expect(annotations.idempotentHint).toBe(replaces || route.request?.headers?.['If-Match']?.required === true);
    // What only adds (a create) is never destructive nor, without its key, idempotent.
    if (route.response.status === 201) expect([annotations.destructiveHint, annotations.idempotentHint]).toEqual([false, false]);
  });

  it('names the tools that change what is live as destructive, so a client asks before it runs them', () => {
    const destructive = tools.filter((tool) => tool.annotations.destructiveHint && tool.route.method === 'POST').map((tool) => tool.name);
    expect(destructive.sort()).toEqual([
      'close_survey',
      'publish_journey_version',
      'publish_knowledge_bank_article',
      'publish_survey',
      'restore_knowledge_bank_revision',
      'unpublish_knowledge_bank_article',
    ]);
  });
});
