/**
 * A keyed hash (HMAC-SHA256) of an identifier a person can be found by (an e-mail, an external id),
 * for use in a key: equal identifiers give equal hashes, so an index can find them, while the
 * table holds no identifier and no one without the key can test a guess against it.
 *
 * The key is derived from the deployment's one server secret (the cursor signing key, a Secrets
 * Manager secret in AWS) with a purpose label, so the two uses never share a key. Routes that hash
 * declare `needs: ['keyed-hash']` to be given the secret.
 */
import { createHmac } from 'node:crypto';
import { cursorSigningKey } from './pagination.ts';

const derived = new Map<string, Promise<Buffer>>();

function keyFor(purpose: string): Promise<Buffer> {
  let key = derived.get(purpose);
  if (!key) {
    key = cursorSigningKey().then((secret) => createHmac('sha256', secret).update(`cx-portal-keyed-hash-v1\n${purpose}`).digest());
    key.catch(() => derived.delete(purpose));
    derived.set(purpose, key);
  }
  return key;
}

/** base64url of HMAC-SHA256(value) under the purpose's key: 43 characters of [A-Za-z0-9_-]. */
export async function keyedHash(purpose: string, value: string): Promise<string> {
  return createHmac('sha256', await keyFor(purpose))
    .update(value)
    .digest('base64url');
}
