/**
 * The API's version and how a deprecated operation announces itself. The version is that of the
 * contract (the OpenAPI document), not of the code: it changes as CHANGELOG.md says, and every
 * response carries it in `API-Version` so a client can log which contract answered it.
 */

export const API_VERSION = '1.0.0';

/** A calendar date, `YYYY-MM-DD` (UTC). */
type IsoDate = `${number}-${number}-${number}`;

/** A manifest entry's `deprecated` field: the operation still works until `sunset`, then it may go. */
export interface Deprecation {
  /** When it was deprecated (RFC 9745 `Deprecation`). */
  since: IsoDate;
  /** From when it may stop working (RFC 8594 `Sunset`); at least six months after `since` (README, Versioning). */
  sunset: IsoDate;
  /** What to use instead, e.g. `GET /ideas with cursor`; shown in the document and the reference page. */
  replacement?: string;
}

function dateOf(value: string, field: string): Date {
  const date = new Date(`${value}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(date.getTime())) {
    throw new Error(`deprecated.${field} must be a YYYY-MM-DD date, got "${value}"`);
  }
  return date;
}

/**
 * The response headers of a deprecated operation: `Deprecation: @<epoch seconds>` (RFC 9745, a
 * structured-field date) and `Sunset: <HTTP-date>` (RFC 8594). Throws on a malformed entry, so a
 * bad manifest fails at cold start (and in the tests), not in a client.
 */
export function deprecationHeaders(deprecated: Deprecation): Record<string, string> {
  const since = dateOf(deprecated.since, 'since');
  const sunset = dateOf(deprecated.sunset, 'sunset');
  if (sunset <= since) throw new Error('deprecated.sunset must be after deprecated.since');
  return { Deprecation: `@${Math.floor(since.getTime() / 1000)}`, Sunset: sunset.toUTCString() };
}
