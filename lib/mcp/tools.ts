/**
 * The MCP server's tools, generated from the route manifest: one per operation the rule
 * (tool-rule.ts) gives an agent, named and described for a model, its input the route's own zod
 * schemas rendered as JSON Schema (path and query parameters as arguments, the request body under
 * `body`, `If-Match` as `ifMatch`, `Idempotency-Key` as `idempotencyKey`).
 */
import * as z from 'zod/mini';
import { jsonSchemaOf } from '../platform/json-schema.ts';
import type { ModuleName, Permission } from '../platform/permissions.ts';
import type { RouteDefinition, Schema } from '../platform/route.ts';
import { agentAccessOf } from './tool-rule.ts';

type JsonSchema = Record<string, unknown>;

export interface AgentTool {
  /** What a model calls it: the operation's id in snake case (`searchKnowledgeBank` → `search_knowledge_bank`). */
  name: string;
  route: RouteDefinition;
  access: 'read' | 'write';
  title: string;
  description: string;
  /** Rendered when first read: a tool call renders only its own tool's (a cold start pays for what it uses). */
  readonly inputSchema: JsonSchema;
  annotations: { readOnlyHint: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint: boolean };
  /** Where each argument goes in the request. */
  arguments: { path: readonly string[]; query: readonly string[]; body: boolean; ifMatch: boolean; idempotencyKey: boolean };
}

/** The arguments that are no parameter of the route: names a route's own parameters may not take. */
export const BODY_ARGUMENT = 'body';
export const IF_MATCH_ARGUMENT = 'ifMatch';
export const IDEMPOTENCY_KEY_ARGUMENT = 'idempotencyKey';

const IF_MATCH_GUIDE =
  'The `etag` of the record as you last read it (every read and write of it returns one), e.g. `"3"`. ' +
  'If the record changed since, the call is refused with `version_conflict` and changes nothing: read it again.';

const IDEMPOTENCY_GUIDE =
  'Optional, any unique string (a UUID is ideal): if you are not sure a call went through, repeat it with the same key and ' +
  'the same body, and it answers with the record the first call created instead of creating another.';

export function toolNameOf(operationId: string): string {
  return operationId.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

function shapeOf(schema: Schema | undefined, what: string, operationId: string): Record<string, Schema> {
  if (!schema) return {};
  const shape = (schema as unknown as { shape?: Record<string, Schema> }).shape;
  if (!shape) throw new Error(`${operationId}: its ${what} schema is not an object, so it cannot become tool arguments`);
  return shape;
}

function descriptionOf(route: RouteDefinition, access: 'read' | 'write', ifMatch: boolean): string {
  const summary = /[.!?]$/.test(route.summary) ? route.summary : `${route.summary}.`;
  const permission = `Needs the permission ${route.permissions.join(' and ')}${route.module ? ` (module ${route.module})` : ''}.`;
  return [
    summary,
    route.description,
    access === 'write' ? `Changes the workspace's data. ${permission}` : `Reads only. ${permission}`,
    ifMatch ? `Send \`${IF_MATCH_ARGUMENT}\` from the record's latest read.` : undefined,
    route.request?.body ? `The request body goes in \`${BODY_ARGUMENT}\`.` : undefined,
  ]
    .filter(Boolean)
    .join('\n\n');
}

/**
 * Operations that change what the workspace's readers see, or stop something running, without
 * being a PUT: publishing a version over the live one, taking an article back, restoring an old
 * revision over the draft, closing a survey to answers.
 */
const LIVE_STATE_VERBS = ['publish', 'unpublish', 'restore', 'close'];

/**
 * The hints a client may trust (test/unit/mcp-tools.test.ts holds every tool to them): a read is
 * `readOnlyHint`; a write is destructive when it replaces what was there (PUT, a PATCH's fields) or
 * changes what is live (LIVE_STATE_VERBS), and only additive otherwise (a create, a submit, a check);
 * idempotent when the same call again changes nothing more: a PUT, a PATCH (its fields are set
 * again to the same values), or a write that needs `If-Match` (the repeat is refused as stale).
 */
function annotationsOf(route: RouteDefinition, access: 'read' | 'write'): AgentTool['annotations'] {
  if (access === 'read') return { readOnlyHint: true, openWorldHint: false };
  const verb = /^[a-z]+/.exec(route.operationId)![0];
  return {
    readOnlyHint: false,
    destructiveHint: route.method === 'PUT' || route.method === 'PATCH' || LIVE_STATE_VERBS.includes(verb),
    idempotentHint: route.method === 'PUT' || route.method === 'PATCH' || route.request?.headers?.['If-Match']?.required === true,
    openWorldHint: false,
  };
}

function toolOf(route: RouteDefinition, access: 'read' | 'write'): AgentTool {
  const path = shapeOf(route.request?.params, 'path', route.operationId);
  const query = shapeOf(route.request?.query, 'query', route.operationId);
  const ifMatchHeader = route.request?.headers?.['If-Match'];
  const shape: Record<string, Schema> = { ...path, ...query };
  const own = [BODY_ARGUMENT, IF_MATCH_ARGUMENT, IDEMPOTENCY_KEY_ARGUMENT];
  const clash = Object.keys(shape).find((name) => own.includes(name) || (name in path && name in query));
  if (clash) throw new Error(`${route.operationId}: the parameter "${clash}" clashes with another tool argument`);
  if (route.request?.body) shape[BODY_ARGUMENT] = route.request.body;
  if (ifMatchHeader) {
    const ifMatch = z.string().register(z.globalRegistry, { description: `${IF_MATCH_GUIDE} ${ifMatchHeader.description}` });
    shape[IF_MATCH_ARGUMENT] = ifMatchHeader.required ? ifMatch : z.optional(ifMatch);
  }
  if (route.idempotent) {
    shape[IDEMPOTENCY_KEY_ARGUMENT] = z.optional(
      z.string().check(z.minLength(1), z.maxLength(255)).register(z.globalRegistry, { description: IDEMPOTENCY_GUIDE }),
    );
  }
  let inputSchema: JsonSchema | undefined;
  return {
    name: toolNameOf(route.operationId),
    route,
    access,
    title: route.summary,
    description: descriptionOf(route, access, ifMatchHeader !== undefined),
    get inputSchema() {
      inputSchema ??= jsonSchemaOf(z.strictObject(shape), 'input');
      return inputSchema;
    },
    annotations: annotationsOf(route, access),
    arguments: {
      path: Object.keys(path),
      query: Object.keys(query),
      body: route.request?.body !== undefined,
      ifMatch: ifMatchHeader !== undefined,
      idempotencyKey: route.idempotent === true,
    },
  };
}

/**
 * Every tool of the manifest: area by area in the manifest's order, by name within an area (an
 * area's own order is its exports', which native ESM and Vite list differently).
 */
export function agentTools(routes: readonly RouteDefinition[]): AgentTool[] {
  const areas = [...new Set(routes.map((route) => route.tag))];
  const area = (tool: AgentTool) => areas.indexOf(tool.route.tag);
  return routes
    .flatMap((route) => {
      const access = agentAccessOf(route, routes);
      return 'tool' in access ? [toolOf(route, access.tool)] : [];
    })
    .sort((a, b) => area(a) - area(b) || a.name.localeCompare(b.name));
}

/** What a key may do in its workspace (`GET /me`): the tools it can use are the ones it holds every permission and module of. */
export interface Grant {
  permissions: readonly Permission[];
  modules: readonly ModuleName[];
}

export function toolsOfGrant(tools: readonly AgentTool[], grant: Grant): AgentTool[] {
  return tools.filter(
    ({ route }) =>
      route.permissions.every((permission) => grant.permissions.includes(permission)) &&
      (route.module === null || grant.modules.includes(route.module)),
  );
}
