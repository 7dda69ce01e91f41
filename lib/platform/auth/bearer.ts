/**
 * The first check of a key, before any database call: an `Authorization: Bearer <token>` header is
 * there and well-formed. Shared by the key check (http/middleware/authorize.ts) and the MCP server,
 * which must answer a request without a usable key with the same 401 before it looks at anything
 * else the request says (docs/using-the-api.md, order of checks).
 */
import { UnauthorizedError } from '../errors.ts';

/** The token of an `Authorization: Bearer <token>` header; 401 `missing_key` or `invalid_key` otherwise. */
export function bearerToken(header: string | undefined): string {
  if (!header) throw new UnauthorizedError('missing_key', 'Send a Developer key as "Authorization: Bearer <key>"');
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  if (!match) throw new UnauthorizedError('invalid_key', 'The Authorization header must be "Bearer <key>"');
  return match[1]!;
}
