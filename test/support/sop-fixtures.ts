/** Builders for SOP tests: an imported directory, write bodies, and a check that counts stay in one rate-limit window. */
import { importDirectory, parseDirectoryImport } from '../../lib/admin/directory.ts';
import { adminStore, call, type TestWorkspace } from './fixtures.ts';

export interface TestDirectory {
  people: { amal: string; omar: string; leaver: string };
  teams: { care: string; billing: string; closed: string };
}

/** Imports a small directory (as `cxctl directory import` does) and returns the ids the API lists. */
export async function importTestDirectory(ws: TestWorkspace): Promise<TestDirectory> {
  await importDirectory(
    adminStore(),
    ws.slug,
    parseDirectoryImport({
      people: [
        { name: 'Amal Haddad', email: 'amal@example.com', active: true, sourceUserId: '0b7e6b3e-9a43-4c5e-8f6f-1f2a3b4c5d6e' },
        { name: 'Omar Saleh', email: 'omar@example.com', active: true },
        { name: 'Layla Former', email: 'layla@example.com', active: false },
      ],
      teams: [
        { name: 'Customer Care', active: true, sourceDepartmentId: '5f0c2a8e-3b1d-4e6f-9a7b-2c3d4e5f6a7b' },
        { name: 'Billing', active: true },
        { name: 'Closed Office', active: false },
      ],
    }),
  );
  const res = await call('GET', '/sops/directory', { host: ws.host, key: ws.key });
  if (res.status !== 200) throw new Error(`GET /sops/directory failed: ${res.text}`);
  const person = (name: string) => (res.body.people as { id: string; name: string }[]).find((p) => p.name === name)!.id;
  const team = (name: string) => (res.body.teams as { id: string; name: string }[]).find((t) => t.name === name)!.id;
  return {
    people: { amal: person('Amal Haddad'), omar: person('Omar Saleh'), leaver: person('Layla Former') },
    teams: { care: team('Customer Care'), billing: team('Billing'), closed: team('Closed Office') },
  };
}

/** A valid write body: an inquiry needs no escalation, so this needs no directory. */
export function sopBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { titleEn: 'Answer a delivery question', type: 'inquiry', ...overrides };
}

/**
 * Makes sure the next few seconds fall inside one rate-limit window for each key, after a request
 * with each, so every following request costs auth's steady two DynamoDB calls.
 */
export async function steadyRateLimitWindow(ws: { host: string }, ...keys: string[]): Promise<void> {
  const probe = async () => Promise.all(keys.map((key) => call('GET', '/me', { host: ws.host, key })));
  const first = await probe();
  const reset = Math.min(...first.map((r) => Number(r.headers.get('ratelimit-reset'))));
  if (reset < 15) {
    await new Promise((resolve) => setTimeout(resolve, (reset + 0.5) * 1000));
    await probe();
  }
}
