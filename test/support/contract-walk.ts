/**
 * The contract run of test/integration/api-examples.test.ts: the one scripted walk through every
 * operation of the manifest calls `record` for each success and `refuse` for a refusal it sets up
 * on purpose. Before each operation's first success, the refusals its manifest entry documents are
 * sent (operation-probes.ts); every answer must be documented (status and body, against the
 * OpenAPI document) and none may be a 5xx (an action a route does not declare is denied by the
 * sandbox as by IAM: a 502). At the end, `undrivenErrors` lists each documented error status of
 * each operation that no call answered, so a route added to the manifest fails the walk until it
 * is driven, with a message saying what to add.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { routes } from '../../lib/manifest.ts';
import type { ApiExample } from '../../lib/platform/openapi.ts';
import { onWorkspaceHost, type RouteDefinition } from '../../lib/platform/route.ts';
import { documentedStatuses, undocumentedIn } from './documented-responses.ts';
import { type ApiResponse, call } from './fixtures.ts';
import { type ProbeCaller, probesOf } from './operation-probes.ts';

/** A request of the walk: a JSON `body`, or an HTML `form` (OAuth's, `application/x-www-form-urlencoded`). */
export type RequestOptions = { body?: Record<string, unknown>; form?: Record<string, string>; headers?: Record<string, string> };
type RecordedCall = NonNullable<ApiExample['errors']>[number];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Documented errors no single request provokes: a concurrent change must land mid-request. */
const ONLY_IN_A_RACE: Record<string, string> = {
  'enableWebhook 409': '`webhook_changed`: the URL or secret changes while the receiver is being verified',
  'redeliverWebhookDelivery 409': '`delivery_in_progress`: an attempt of the delivery is being made at that moment',
};

function routeOf(operationId: string): RouteDefinition {
  const route = routes.find((r) => r.operationId === operationId);
  if (!route) throw new Error(`${operationId} is no operation of the manifest`);
  return route;
}

function recordedCall(path: string, options: RequestOptions, res: ApiResponse, body: unknown = res.body): RecordedCall {
  const [pathOnly, query] = path.split('?');
  return {
    request: {
      path: pathOnly!,
      ...(query ? { query } : {}),
      ...(options.headers ? { headers: options.headers } : {}),
      ...(options.body ? { body: options.body } : {}),
      ...(options.form ? { body: options.form } : {}),
    },
    response: { status: res.status, body },
  };
}

export class ContractWalk {
  /** The first success of each operation: its example. */
  readonly recorded = new Map<string, ApiExample>();
  /** Refusals by operation, the first of each error code: the examples of its error statuses. */
  private readonly refusals = new Map<string, RecordedCall[]>();
  /**
   * The DynamoDB calls and sequential depth of each operation's first success, as the sandbox
   * counted them (X-Sandbox-DynamoDB-Calls, X-Sandbox-DynamoDB-Depth): docs/latency.md states them.
   */
  readonly roundTrips = new Map<string, { calls: number; depth: number }>();
  /** The statuses each operation answered, to find documented errors the walk never drove. */
  private readonly driven = new Map<string, Set<number>>();

  constructor(private readonly caller: ProbeCaller) {}

  /** Calls the operation, which must succeed; its first call is its example, after its documented refusals. */
  async record(operationId: string, path: string, given: RequestOptions = {}): Promise<any> {
    const route = routeOf(operationId);
    const first = !this.recorded.has(operationId);
    const options = first ? this.withIdempotencyKey(route, given) : given;
    if (first) await this.probe(route, path, options);
    if (first) await this.sendFilters(route, path, options);
    const res = await this.send(route, path, options);
    this.expectDocumented(route, 'success', res);
    expect(res.status, `${operationId}: ${res.text}`).toBe(route.response.status);
    if (first) {
      const counted = (answer: ApiResponse, name: string) => Number(answer.headers.get(`x-sandbox-dynamodb-${name}`));
      let cost = { calls: counted(res, 'calls'), depth: counted(res, 'depth') };
      if (route.method === 'GET') {
        // A read is measured twice and its cheaper answer kept: what a warm instance costs (a cold one
        // reads what a warm one has cached, docs/latency.md), and its depth
        // as the code orders its calls rather than as a loaded machine happened to schedule them (the
        // depth is measured from each call's start and end: reads sent beside the rate-limit count but
        // started after it ended on a busy core would count as one round trip more).
        const again = await this.send(route, path, options);
        const second = { calls: counted(again, 'calls'), depth: counted(again, 'depth') };
        if (second.depth < cost.depth || (second.depth === cost.depth && second.calls < cost.calls)) cost = second;
      }
      this.roundTrips.set(operationId, cost);
      await this.replayIdempotently(route, path, options, res);
      // The document's own example shows its head only, without the overview the document opens with anyway.
      const body = operationId === 'getOpenApiDocument' ? { openapi: '3.1.0', info: { ...res.body.info, description: '…' } } : res.body;
      this.recorded.set(operationId, recordedCall(path, options, res, body));
    }
    return res;
  }

  /**
   * Sends a request the operation must refuse with `status` and `code`. The first of each code is
   * its example in the document, unless `example` is false (a megabyte of body shows nothing).
   */
  async refuse(
    operationId: string,
    path: string,
    options: RequestOptions,
    [status, code]: [number, string],
    example = true,
  ): Promise<ApiResponse> {
    const route = routeOf(operationId);
    const res = await this.send(route, path, options);
    this.expectDocumented(route, `refused (${code})`, res);
    expect([res.status, res.body?.error], `${operationId}: ${res.text.slice(0, 300)}`).toEqual([status, code]);
    const known = this.refusals.get(operationId) ?? [];
    if (example && !known.some((refusal) => (refusal.response.body as { error: string }).error === code)) {
      this.refusals.set(operationId, [...known, recordedCall(path, options, res)]);
    }
    return res;
  }

  /**
   * Sends a request the operation answers with a protocol's own answer (the MCP route's JSON-RPC
   * error with 406, its 202 for a notification: RouteDefinition.response.otherAnswers), which must be
   * documented as such.
   */
  async answer(operationId: string, path: string, options: RequestOptions, status: number): Promise<ApiResponse> {
    const route = routeOf(operationId);
    const res = await this.send(route, path, options);
    this.expectDocumented(route, `answered ${status}`, res);
    expect(res.status, `${operationId}: ${res.text.slice(0, 300)}`).toBe(status);
    return res;
  }

  /** Every recorded example, refusals included, by operation. */
  examples(): Map<string, ApiExample> {
    const all = new Map(this.recorded);
    for (const [operationId, errors] of this.refusals) {
      const success = all.get(operationId);
      if (success) all.set(operationId, { ...success, errors });
    }
    return all;
  }

  /**
   * The documented error statuses of every operation that no call of the walk answered. Not 429,
   * 502 and 503 (no request should provoke them: the limits, a defect, AWS pushing back; each has
   * its own tests: rate-limit-verdict, service-busy, tenants), nor 404 where the path names no record, nor 403
   * where there is no permission or module to lack (only a deleted or suspended workspace gets
   * those: test/integration/platform-auth.test.ts).
   */
  undrivenErrors(): string[] {
    return routes.flatMap((route) => {
      const answered = this.driven.get(route.operationId) ?? new Set();
      return documentedStatuses(route)
        .filter((status) => status >= 400 && ![429, 502, 503].includes(status) && !answered.has(status))
        .filter((status) => status !== 404 || route.request?.params !== undefined)
        .filter((status) => status !== 403 || route.permissions.length > 0 || route.module !== null)
        .map((status) => `${route.operationId} ${status}`)
        .filter((error) => !(error in ONLY_IN_A_RACE));
    });
  }

  /** A `root` route's path is from the host's root (`/.well-known/…`), every other's below /api/v1. */
  private send(route: RouteDefinition, path: string, options: RequestOptions): Promise<ApiResponse> {
    const redirect = onWorkspaceHost(route) ? 'manual' : undefined;
    return call(route.method, path, { host: this.caller.host, key: this.caller.key, root: route.root, redirect, ...options });
  }

  /** Every answer of the walk: never a 5xx, and what the document says this operation answers with this status. */
  private expectDocumented(route: RouteDefinition, what: string, res: ApiResponse): void {
    expect(
      res.status,
      `${route.operationId} ${what}: ${res.status} ${res.text.slice(0, 300)}. A 5xx is a defect; a 502 is often an action ` +
        `missing from the route's \`table\` (the sandbox denies it as IAM would: see its log)`,
    ).toBeLessThan(500);
    if (route.response.contentType === undefined) expect(undocumentedIn(route, res.status, res.body), what).toBeNull();
    this.driven.set(route.operationId, (this.driven.get(route.operationId) ?? new Set()).add(res.status));
  }

  /** The refusals the route documents (operation-probes.ts): each refused, so none changes anything. */
  private async probe(route: RouteDefinition, path: string, options: RequestOptions): Promise<void> {
    for (const { why, status, code, send } of probesOf(route, { path, ...options }, this.caller)) {
      const res = await send();
      this.expectDocumented(route, why, res);
      expect([res.status, res.body?.error], `${route.operationId} ${why}: ${res.text.slice(0, 300)}`).toEqual([status, code]);
    }
  }

  /**
   * Each documented filter of a paged list, alone and all together (issue 27 item 11: a
   * filter that only ever went out beside another hid a 502). Whatever the combination, the answer
   * is a documented one (a 200, or a documented 400 for filters that exclude each other), never a 5xx.
   */
  private async sendFilters(route: RouteDefinition, path: string, options: RequestOptions): Promise<void> {
    const filters = listFilters(route, path);
    const names = Object.keys(filters);
    const combinations = [...names.map((name) => [name]), ...(names.length > 1 ? [names] : [])];
    const [pathOnly] = path.split('?');
    for (const combination of combinations) {
      const query = new URLSearchParams(combination.map((name) => [name, filters[name]!])).toString();
      const res = await this.send(route, `${pathOnly}?${query}`, { headers: options.headers });
      this.expectDocumented(route, `filtered by ${combination.join(' and ')}`, res);
    }
  }

  /** A creating POST's first call carries an Idempotency-Key, one per operation (the workspace is new on every run). */
  private withIdempotencyKey(route: RouteDefinition, options: RequestOptions): RequestOptions {
    if (!route.idempotent || options.headers?.['Idempotency-Key']) return options;
    return { ...options, headers: { ...options.headers, 'Idempotency-Key': `walk-${route.operationId}` } };
  }

  /**
   * The same key and body again is the first answer, replayed; with one text member changed it is
   * 409 `idempotency_key_reused`. Neither creates anything. A body with no text to vary needs a
   * `refuse` step of its own (the walk's createSurveyVersion).
   */
  private async replayIdempotently(route: RouteDefinition, path: string, options: RequestOptions, first: ApiResponse): Promise<void> {
    if (!route.idempotent || options.headers?.['Idempotency-Key'] === undefined) return;
    const replay = await this.send(route, path, options);
    this.expectDocumented(route, 'replayed with its Idempotency-Key', replay);
    expect([replay.status, replay.headers.get('idempotent-replayed'), replay.body], route.operationId).toEqual([
      first.status,
      'true',
      first.body,
    ]);
    // A text member the route still accepts when changed (not an id, not one of a fixed set of values).
    const varied = (name: string, value: string) => ({ ...options.body, [name]: `${value} (another)` });
    const text = Object.entries(options.body ?? {}).find(
      ([name, value]) =>
        typeof value === 'string' &&
        !UUID.test(value) &&
        (!route.request?.body || route.request.body.safeParse(varied(name, value)).success),
    );
    if (!text) return;
    const other = { ...options, body: varied(text[0], text[1] as string) };
    await this.refuse(route.operationId, path, other, [409, 'idempotency_key_reused'], false);
  }
}

const PAGE_PARAMETERS = new Set(['limit', 'offset', 'cursor']);

type SchemaDefinition = {
  type: string;
  format?: string;
  innerType?: { _zod: { def: SchemaDefinition } };
  entries?: Record<string, string>;
};

/**
 * The filters of a paged list (its query beside `limit`, `offset`, `cursor`), each with a value its
 * schema accepts: the one the walk's own request sends, else the first of an enum, a UUID that names
 * nothing, an hour ago for a time, a word for text.
 */
function listFilters(route: RouteDefinition, path: string): Record<string, string> {
  const shape = (route.request?.query as { _zod?: { def?: { shape?: Record<string, { _zod: { def: SchemaDefinition } }> } } } | undefined)
    ?._zod?.def?.shape;
  if (route.method !== 'GET' || !shape?.cursor) return {};
  const given = new URLSearchParams(path.split('?')[1] ?? '');
  const filters: Record<string, string> = {};
  for (const [name, schema] of Object.entries(shape)) {
    if (PAGE_PARAMETERS.has(name)) continue;
    let def = schema._zod.def;
    while (def.innerType) def = def.innerType._zod.def;
    filters[name] =
      given.get(name) ??
      (def.entries
        ? Object.values(def.entries)[0]!
        : def.format === 'uuid'
          ? randomUUID()
          : def.format === 'datetime'
            ? new Date(Date.now() - 3_600_000).toISOString()
            : def.format === 'date'
              ? new Date().toISOString().slice(0, 10)
              : 'walk');
  }
  return filters;
}
