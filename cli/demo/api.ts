/**
 * The demo's HTTP client: the same requests an integrator sends (workspace host header, Bearer
 * key, JSON, If-Match, Idempotency-Key), so the demo data goes through every check and write path
 * of the API. A refusal stops the run with the API's own error code and message.
 */
import { AdminError } from '../../lib/admin/table-client.ts';
import { type Difference, describeDifferences, differencesFrom } from './compare.ts';

export interface Answer<T = unknown> {
  status: number;
  etag: string | null;
  body: T;
}

export interface SendOptions {
  body?: unknown;
  ifMatch?: string;
  /** Made unique per workspace and item by the client, so a retried create creates nothing. */
  idempotencyKey?: string;
}

type Page<T> = { [field: string]: T[] | undefined } & { pagination?: { nextCursor?: string | null } };

/** The API answered an error: the run stops with its status, code and message. */
export class ApiRefusal extends AdminError {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class DemoApi {
  constructor(
    readonly apiUrl: string,
    readonly workspace: string,
    private readonly host: string,
    private readonly key: string,
  ) {}

  async send<T = unknown>(method: string, path: string, options: SendOptions = {}): Promise<Answer<T>> {
    const headers: Record<string, string> = { 'X-Service-Workspace-Host': this.host, Authorization: `Bearer ${this.key}` };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    if (options.ifMatch !== undefined) headers['If-Match'] = options.ifMatch;
    if (options.idempotencyKey !== undefined) headers['Idempotency-Key'] = `cxctl-demo:${this.workspace}:${options.idempotencyKey}`;
    let res: Response;
    try {
      res = await fetch(`${this.apiUrl}${path}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
    } catch (error) {
      throw new AdminError(
        `Cannot reach the API at ${this.apiUrl} (${(error as Error).message}). Is the sandbox running? Start it with: npm start. ` +
          'If it runs on other ports or another DATA_DIR, give cxctl the variables its banner prints for cxctl demo, or --api',
      );
    }
    const text = await res.text();
    let body: { error?: string; message?: string; issues?: unknown; diagnostics?: unknown; changes?: unknown } | undefined;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (!res.ok) {
      const reason = body?.error ? `${body.error}: ${body.message}` : text.slice(0, 200);
      const details = body?.issues ?? body?.diagnostics ?? body?.changes;
      throw new ApiRefusal(res.status, `${method} ${path} answered ${res.status} ${reason}${details ? ` ${JSON.stringify(details)}` : ''}`);
    }
    return { status: res.status, etag: res.headers.get('etag'), body: body as T };
  }

  get<T = unknown>(path: string): Promise<Answer<T>> {
    return this.send<T>('GET', path);
  }

  post<T = unknown>(path: string, body?: unknown, idempotencyKey?: string): Promise<Answer<T>> {
    return this.send<T>('POST', path, { body, idempotencyKey });
  }

  /** Every item of a paged list, walking `nextCursor`; `path` may carry filters. */
  async listAll<T>(path: string, field: string): Promise<T[]> {
    const items: T[] = [];
    const separator = path.includes('?') ? '&' : '?';
    let cursor: string | null = null;
    do {
      const page: Answer<Page<T>> = await this.get<Page<T>>(
        `${path}${separator}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      items.push(...(page.body[field] as T[]));
      cursor = page.body.pagination?.nextCursor ?? null;
    } while (cursor);
    return items;
  }
}

/** A demo record that is not as the demo writes it, and where. */
export interface DemoDifference extends Difference {
  /** Which record: `idea "Track my refund"`, `SOP directory: Omar Saleh`. */
  record: string;
}

/** What one area did: the demo prints one line per area, then every record that differs from the data set. */
export class Tally {
  readonly lines: string[] = [];
  created = 0;
  existing = 0;
  /** Writes to records that were there: labels added, an item a failed run left half-way taken on. */
  changed = 0;
  readonly differences: DemoDifference[] = [];
  readonly differenceLines: string[] = [];

  note(area: string, created: number, existing: number, detail = ''): void {
    this.created += created;
    this.existing += existing;
    const parts = [created ? `${created} created` : '', existing ? `${existing} already there` : ''].filter(Boolean);
    this.lines.push(`  ${area.padEnd(16)} ${parts.join(', ')}${detail ? `  (${detail})` : ''}`);
  }

  /** Compares a record found again with what the demo writes (compare.ts), noting each difference. */
  compare(record: string, expected: unknown, actual: unknown): boolean {
    const differences = differencesFrom(expected, actual);
    if (differences.length === 0) return true;
    this.differences.push(...differences.map((difference) => ({ record, ...difference })));
    this.differenceLines.push(`  ${describeDifferences(record, differences)}`);
    return false;
  }
}
