/**
 * Whether content fits a version: checked by a content save and a validation before anything is
 * read. Pure: the item's size comes from DynamoDB's rules (store/versions.ts: largestVersionItemBytes).
 */
import { ContentTooLargeError } from '../platform/errors.ts';
import { CONTENT_LIMITS, encodeContent } from './codec.ts';
import type { JourneyContent } from './content.ts';
import { pairTargetsOf } from './diagnostics.ts';
import { largestBindingsAttribute } from './metric-bindings.ts';
import { largestVersionItemBytes } from './store/versions.ts';

/**
 * The content encoded, or the 413 it answers when it does not fit a version: more than 1 MB of JSON,
 * or a version item (the compressed content, its distinct pair targets, room for diagnostics and
 * metric bindings, the metadata at their longest) past DynamoDB's item limit, which DynamoDB itself
 * would refuse with a ValidationException (a 502).
 */
export function encodeToFit(content: JourneyContent) {
  const encoded = encodeContent(content);
  if (!encoded.ok && encoded.limit === 'rawBytes')
    throw new ContentTooLargeError(`content is ${encoded.bytes} bytes of JSON; at most ${CONTENT_LIMITS.rawBytes} are accepted`);
  const pairs = pairTargetsOf(content);
  const itemBytes = encoded.ok
    ? largestVersionItemBytes({
        content: encoded.compressed,
        contentBytes: encoded.rawBytes,
        pairs,
        bindings: largestBindingsAttribute(content),
      })
    : encoded.bytes;
  if (!encoded.ok || itemBytes > CONTENT_LIMITS.itemBytes) {
    const compressed = encoded.ok ? encoded.compressed.byteLength : encoded.bytes;
    throw new ContentTooLargeError(
      `content does not fit one version: it compresses to ${compressed} bytes, and with its ${new Set(pairs.map((p) => `${p.journeyId}/${p.versionId}`)).size} ` +
        `distinct micro-journey pairs, room for diagnostics and the version's other attributes the version would take ${itemBytes} bytes; ` +
        `DynamoDB holds at most ${CONTENT_LIMITS.itemBytes} in one item`,
    );
  }
  return { encoded, pairs };
}
