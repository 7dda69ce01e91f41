/**
 * docs/success-answers.md: the one place that says what every operation answers on success, its
 * status and the members beside `ok`, which differ by operation as the spec fixes them. Made from the
 * OpenAPI document (the route manifest's response schemas), so it cannot drift from the API:
 * test/unit/success-answers.test.ts fails when the committed file differs.
 * `npm run docs:success-answers` writes it.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { apiDocument } from '../lib/api-document.ts';
import { routes } from '../lib/manifest.ts';

export const SUCCESS_ANSWERS_FILE = resolve(import.meta.dirname, '../docs/success-answers.md');

type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
};
type Document = {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema?: JsonSchema }> }> }>>;
  components: { schemas: Record<string, JsonSchema> };
};

const componentName = (ref: string) => ref.split('/').at(-1)!;

/** A member's shape in a word or two: a named record, a list of them, or the JSON type. */
function shapeOf(schema: JsonSchema): string {
  if (schema.$ref) return componentName(schema.$ref);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return [...new Set(alternatives.map(shapeOf))].join(' or ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const types = [schema.type ?? 'any'].flat();
  return types
    .map((type) => {
      if (type !== 'array' || !schema.items) return type;
      const item = shapeOf(schema.items);
      return item.includes(' or ') ? `(${item})[]` : `${item}[]`;
    })
    .join(' or ');
}

function membersOf(document: Document, schema: JsonSchema | undefined): string {
  let body = schema;
  while (body?.$ref) body = document.components.schemas[componentName(body.$ref)];
  const properties = body?.properties ?? {};
  const members = Object.entries(properties).filter(([name]) => name !== 'ok');
  const listed = members.map(([name, member]) => `\`${name}\` ${shapeOf(member)}`).join(', ');
  if (!('ok' in properties)) {
    return listed ? `not the envelope: the JSON document itself (${listed}, …)` : 'not the envelope';
  }
  return members.length === 0 ? 'none: `{"ok": true}`' : listed;
}

export function successAnswersGuide(): string {
  const document = apiDocument() as unknown as Document;
  // By area (the manifest's tag order), then path, then method: the manifest's order within an area is
  // its modules' export order, which the loader decides (tsx and vitest differ).
  const tags = [...new Set(routes.map((route) => route.tag))];
  const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
  const ordered = [...routes].sort(
    (a, b) =>
      tags.indexOf(a.tag) - tags.indexOf(b.tag) ||
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) ||
      methods.indexOf(a.method) - methods.indexOf(b.method),
  );
  const rows = ordered.map((route) => {
    const { status, contentType } = route.response;
    const answer = document.paths[route.path || '/']![route.method.toLowerCase()]!.responses[String(status)]!;
    const what = contentType
      ? `a ${contentType === 'text/html' ? 'page' : 'picture'} (\`${contentType}\`), not the envelope`
      : membersOf(document, answer.content?.['application/json']?.schema);
    // A route answering something else than the envelope with no members to list (the MCP server's
    // JSON-RPC messages) says what it answers in its own words.
    const said = what === 'not the envelope' && route.response.description ? `${what}: ${route.response.description}` : what;
    const statuses = route.response.also ? `${status} (${route.response.also.status}: ${route.response.also.description})` : status;
    return `| \`${route.method} ${route.path || '/'}\` | ${route.operationId} | ${statuses} | ${said} |`;
  });
  const count = (status: number) => routes.filter((route) => route.response.status === status).length;
  return `${[
    '# Success answers',
    '',
    'Every success is the envelope `{"ok": true, …}` with the operation\'s own members beside `ok`, as the',
    'spec fixes them (its part 2, Conventions, and part 4): ideas answer `data` (one idea, or a page of them',
    'with `pagination`); every other area names what it answers (`journeys`, `survey`, `sop`, `webhook`,',
    '`category`, …). The status is 201 where a create gives the record an address of its own (sent as',
    '`Location`), 202 where the work is accepted and finishes later (read its result where `Location` or',
    'the guide says), and 200 otherwise, creates the spec answers with 200 included (`POST /journeys`,',
    '`POST /surveys`, `POST /sops`). Errors are one envelope for every operation: see [Errors](errors.md).',
    '',
    `${routes.length} operations: ${count(200)} answer 200, ${count(201)} answer 201 and ${count(202)} answer 202. Each`,
    "record's fields are in the reference page (`GET /api/v1/docs`) under the named type. This page is",
    'generated from the route manifest (`npm run docs:success-answers`); `test/unit/success-answers.test.ts`',
    'fails when it differs.',
    '',
    '| Operation | operationId | Status | Members beside `ok` |',
    '| --- | --- | --- | --- |',
    ...rows,
  ].join('\n')}\n`;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  writeFileSync(SUCCESS_ANSWERS_FILE, successAnswersGuide());
  console.log(`Wrote ${SUCCESS_ANSWERS_FILE}`);
}
