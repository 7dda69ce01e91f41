/** The committed client (clients/typescript) matches the API: regenerating its types or its version changes nothing. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateClientSchema, PACKAGE_FILE, packageManifest, SCHEMA_FILE } from '../../clients/typescript/generate.ts';
import { apiDocument } from '../../lib/api-document.ts';

describe('clients/typescript', () => {
  it('has types generated from the current OpenAPI document (else run `npm run client` and commit)', async () => {
    const fresh = await generateClientSchema();
    const committed = readFileSync(SCHEMA_FILE, 'utf8');
    expect(committed === fresh, 'clients/typescript/generated/schema.ts is stale: run `npm run client` and commit it').toBe(true);
  }, 30_000);

  it("carries the document's version as the package's (else run `npm run client` and commit)", () => {
    const committed = readFileSync(PACKAGE_FILE, 'utf8');
    expect(committed, 'clients/typescript/package.json has another version than the document: run `npm run client`').toBe(
      packageManifest(),
    );
    expect(JSON.parse(committed).version).toBe((apiDocument() as { info: { version: string } }).info.version);
  });

  it('exports the webhook events the document lists, each by name', () => {
    const schema = readFileSync(SCHEMA_FILE, 'utf8');
    const events = Object.keys((apiDocument() as { webhooks: Record<string, unknown> }).webhooks);
    expect(events.length).toBeGreaterThan(4);
    for (const event of events) expect(schema, event).toContain(`"${event}": {`);
    expect(schema).toContain("export type IdeaStatusChangedEvent = components['schemas']['IdeaStatusChangedEvent'];");
  });
});
