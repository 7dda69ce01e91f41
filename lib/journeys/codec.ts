/**
 * Version content is stored compressed in a Binary attribute, so a large journey still fits one
 * DynamoDB item (400 KB) and a save costs write units for its compressed size, not its raw size.
 * Brotli at a middle quality: JSON of journeys compresses ~5-15x, and quality 5 keeps a 1 MB save
 * in the tens of milliseconds (quality 11 would take about a second of Lambda time).
 */
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';

export const CONTENT_LIMITS = {
  /** UTF-8 bytes of the content's JSON. */
  rawBytes: 1_048_576,
  /** Leaves ~50 KB of the 400 KB item for the version's other attributes (diagnostics, label…). */
  compressedBytes: 350 * 1024,
} as const;

export type EncodedContent =
  | { ok: true; compressed: Uint8Array; rawBytes: number }
  | { ok: false; limit: 'rawBytes' | 'compressedBytes'; bytes: number };

export function encodeContent(content: unknown): EncodedContent {
  return encodeJson(JSON.stringify(content), CONTENT_LIMITS.rawBytes, CONTENT_LIMITS.compressedBytes);
}

/** Same format for any JSON value with its own caps (diagnostics are stored the same way). */
export function encodeJson(json: string, maxRawBytes: number, maxCompressedBytes: number): EncodedContent {
  const raw = Buffer.from(json, 'utf8');
  if (raw.byteLength > maxRawBytes) return { ok: false, limit: 'rawBytes', bytes: raw.byteLength };
  const compressed = brotliCompressSync(raw, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 5,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: raw.byteLength,
    },
  });
  if (compressed.byteLength > maxCompressedBytes) return { ok: false, limit: 'compressedBytes', bytes: compressed.byteLength };
  return { ok: true, compressed: new Uint8Array(compressed), rawBytes: raw.byteLength };
}

/** Inflates what encodeJson stored; the output cap guards against a corrupt item inflating without bound. */
export function decodeJson(compressed: Uint8Array, maxRawBytes = CONTENT_LIMITS.rawBytes): unknown {
  const raw = brotliDecompressSync(compressed, { maxOutputLength: maxRawBytes });
  return JSON.parse(raw.toString('utf8'));
}
