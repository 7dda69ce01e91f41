/** The committed client (clients/typescript) matches the API: regenerating its types changes nothing. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateClientSchema, SCHEMA_FILE } from '../../clients/typescript/generate.ts';

describe('clients/typescript', () => {
  it('has types generated from the current OpenAPI document (else run `npm run client` and commit)', async () => {
    const fresh = await generateClientSchema();
    const committed = readFileSync(SCHEMA_FILE, 'utf8');
    expect(committed === fresh, 'clients/typescript/generated/schema.ts is stale: run `npm run client` and commit it').toBe(true);
  }, 30_000);
});
