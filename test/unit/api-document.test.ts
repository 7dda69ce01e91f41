/**
 * What an integrator reads for every operation, in the document and so on the reference page:
 * a description, its permissions, its errors with their codes, and a recorded example.
 */
import { describe, expect, it } from 'vitest';
import { apiDocument } from '../../lib/api-document.ts';
import recorded from '../../lib/api-examples.json' with { type: 'json' };
import { routes } from '../../lib/manifest.ts';
import type { ApiExample } from '../../lib/platform/openapi.ts';
import { acceptsCursor, onWorkspaceHost } from '../../lib/platform/route.ts';
import { undocumentedIn } from '../support/documented-responses.ts';
import { inlineRefs } from '../support/openapi-refs.ts';

const document = apiDocument() as any;

describe('the OpenAPI document, operation by operation', () => {
  for (const route of routes) {
    // The API's root is `''` in the manifest and `/` in the document.
    const operation = () => document.paths[route.path || '/'][route.method.toLowerCase()];

    it(`${route.operationId}: has a description and, when it takes a key, its permissions`, () => {
      expect(operation().description.length).toBeGreaterThan(20);
      if (route.auth !== 'none') expect(operation().description).toMatch(/Permission: /);
    });

    it(`${route.operationId}: names the error codes of every error status`, () => {
      for (const [status, entry] of Object.entries<any>(operation().responses)) {
        // A response every operation gives alike is written once, under components.responses.
        const response = entry.$ref ? document.components.responses[entry.$ref.split('/').pop()] : entry;
        if (Number(status) >= 400) expect(response.description, `${status}`).toMatch(/`[a-z_]+`/);
      }
    });

    it(`${route.operationId}: shows a recorded request (curl) and response, and its request body when it takes one`, () => {
      const op = operation();
      // Against the server the reader picks (BASE_URL), the sandbox when none is set; OAuth's on the workspace's own host.
      const base = onWorkspaceHost(route)
        ? `WORKSPACE_ORIGIN:-http://your-workspace\\.localhost:3000\\}${route.root ? '' : '/api/v1'}`
        : 'BASE_URL:-http://127\\.0\\.0\\.1:3000/api/v1\\}';
      expect(op['x-codeSamples'][0].source).toMatch(new RegExp(`^curl -X ${route.method} "\\$\\{${base}[/"]`));
      const success = op.responses[route.response.status].content;
      expect(Object.values<any>(success)[0].examples.recorded.value).toBeDefined();
      const mediaType = route.request?.contentType ?? 'application/json';
      if (route.request?.body) expect(op.requestBody.content[mediaType].examples.recorded.value).toBeDefined();
    });
  }
});

describe('every list that takes a cursor', () => {
  const lists = routes.filter(acceptsCursor);

  it('includes every offset list of every area', () => {
    expect(lists.map((r) => r.operationId).sort()).toEqual([
      'listIdeaComments',
      'listIdeaVotes',
      'listIdeas',
      'listJourneyVersions',
      'listJourneys',
      'listKnowledgeBankArticles',
      'listKnowledgeBankExternalLinks',
      'listKnowledgeBankRevisions',
      'listKnowledgeBankTranslations',
      'listSurveyResponses',
      'listSurveys',
      'listWebhookDeliveries',
    ]);
  });

  for (const route of lists) {
    it(`${route.operationId}: documents cursor and returns pagination.nextCursor (so the handler must call paginate())`, () => {
      const op = inlineRefs(document).paths[route.path][route.method.toLowerCase()];
      expect(op.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['limit', 'offset', 'cursor']));
      const body = op.responses[route.response.status].content['application/json'].schema;
      expect(body.properties.pagination.properties.nextCursor).toBeDefined();
      expect(body.properties.pagination.required).toContain('nextCursor');
    });
  }
});

describe('every recorded example (lib/api-examples.json), against its operation in the document', () => {
  const examples: Readonly<Record<string, ApiExample>> = recorded;
  const refusals = Object.entries(examples).flatMap(([operationId, example]) =>
    (example.errors ?? []).map((refusal) => ({ operationId, ...refusal.response })),
  );

  it('include the refusals that carry details: diagnostics, issues with severity and code, changes', () => {
    expect(refusals.map(({ operationId, status, body }) => `${operationId} ${status} ${(body as { error: string }).error}`)).toEqual(
      expect.arrayContaining([
        'publishJourneyVersion 400 invalid_content',
        'publishSurvey 409 breaking_changes',
        'publishSurvey 400 invalid_definition',
        'submitSurveyResponse 400 invalid_answers',
      ]),
    );
  });

  for (const { operationId, status, body } of refusals) {
    it(`${operationId} ${status} ${(body as { error: string }).error}: the body validates against that status's schema`, () => {
      const route = routes.find((r) => r.operationId === operationId)!;
      expect(undocumentedIn(route, status, body)).toBeNull();
    });
  }

  for (const route of routes.filter((r) => r.response.contentType === undefined)) {
    it(`${route.operationId}: the recorded success validates against its schema`, () => {
      const { response } = examples[route.operationId]!;
      expect(undocumentedIn(route, response.status, response.body)).toBeNull();
    });
  }
});
