/**
 * The stored form of a search index, and loading it. MiniSearch's own form (`JSON.stringify` of the
 * index, `MiniSearch.loadJS`) keeps each posting as a key of a nested object: `{term: {field:
 * {"docId": freq}}}`; parsing makes an object per term and field, and loading turns every key back
 * into a number one at a time. At 10,000 bilingual articles that is millions of postings, and the
 * profile (bench/knowledge-bank-search.ts) put 2/3 of a cold load there. Here the segment is a small
 * JSON header (documents, stored fields, the term list) and the postings as bytes (variable-length
 * integers), and each term's postings are decoded only when a query first reaches the term: a cold
 * load parses the header and inserts the terms, whatever the number of postings.
 *
 * The loader sets MiniSearch's internal maps (those its own `loadJS` sets, in 7.x), so it depends on
 * that shape: test/unit/knowledge-bank-search-index.test.ts checks that an index loaded here answers
 * exactly as one MiniSearch loads itself, and a MiniSearch upgrade that changes the shape fails it.
 */
import MiniSearch, { type Options } from 'minisearch';
import type { SearchDocument } from './documents.ts';
import { footprintOf } from './index-footprint.ts';

/** What MiniSearch keeps per index (its private fields, as of 7.x). */
interface Internals {
  _documentCount: number;
  _nextId: number;
  _fieldIds: Record<string, number>;
  _avgFieldLength: number[];
  _dirtCount: number;
  _documentIds: Map<number, string>;
  _idToShortId: Map<string, number>;
  _fieldLength: Map<number, number[]>;
  _storedFields: Map<number, Record<string, unknown> | undefined>;
  _index: Iterable<[string, Map<number, Map<number, number>>]> & {
    set(term: string, data: Map<number, Map<number, number>>): void;
  };
}

interface Header {
  /** Bumped when this layout changes (INDEX_FORMAT in search-index.ts is bumped with it). */
  layout: 2;
  documentCount: number;
  nextId: number;
  fieldIds: Record<string, number>;
  averageFieldLength: number[];
  dirtCount: number;
  /** Short ids (MiniSearch's numeric document ids), each as the difference from the one before. */
  shortIds: number[];
  ids: string[];
  /** Each document's field lengths, one per field, in `shortIds` order. */
  fieldLength: number[];
  /** The stored fields' names, and each document's values in that order. */
  storedFields: string[];
  stored: unknown[][];
  terms: string[];
  /** How many bytes of the postings each term takes, in `terms` order. */
  termBytes: number[];
}

/**
 * A term's postings (field id → document short id → term frequency), decoded from the segment's
 * bytes the first time anything reads them. Most terms of a large index are never searched for in
 * the life of an instance, so a cold load decodes none of them; every Map method decodes first, so
 * MiniSearch (searching, discarding, vacuuming) sees an ordinary Map.
 */
class TermPostings extends Map<number, Map<number, number>> {
  #bytes: Uint8Array | null;
  /** The index's counts (index-footprint.ts): a decode moves this term's postings from bytes to Maps. */
  readonly #footprint: ReturnType<typeof footprintOf>;

  constructor(bytes: Uint8Array, footprint: ReturnType<typeof footprintOf>) {
    super();
    this.#bytes = bytes;
    this.#footprint = footprint;
  }

  #decode(): void {
    const bytes = this.#bytes;
    if (bytes === null) return;
    this.#bytes = null;
    this.#footprint.undecodedTerms--;
    const reader = { bytes, at: 0 };
    const fields = readVarint(reader);
    for (let f = 0; f < fields; f++) {
      const fieldId = readVarint(reader);
      const documents = readVarint(reader);
      this.#footprint.postings += documents;
      const docIds: number[] = new Array(documents);
      let docId = 0;
      for (let d = 0; d < documents; d++) {
        docId += unzigzag(readVarint(reader));
        docIds[d] = docId;
      }
      const frequencies = new Map<number, number>();
      for (let d = 0; d < documents; d++) frequencies.set(docIds[d]!, readVarint(reader));
      super.set(fieldId, frequencies);
    }
  }

  override get size(): number {
    this.#decode();
    return super.size;
  }
  override get(key: number) {
    this.#decode();
    return super.get(key);
  }
  override has(key: number) {
    this.#decode();
    return super.has(key);
  }
  override set(key: number, value: Map<number, number>) {
    this.#decode();
    return super.set(key, value);
  }
  override delete(key: number) {
    this.#decode();
    return super.delete(key);
  }
  override clear() {
    if (this.#bytes !== null) this.#footprint.undecodedTerms--;
    this.#bytes = null;
    super.clear();
  }
  override entries() {
    this.#decode();
    return super.entries();
  }
  override keys() {
    this.#decode();
    return super.keys();
  }
  override values() {
    this.#decode();
    return super.values();
  }
  override forEach(callback: (value: Map<number, number>, key: number, map: Map<number, Map<number, number>>) => void, thisArg?: unknown) {
    this.#decode();
    super.forEach(callback, thisArg);
  }
  override [Symbol.iterator]() {
    this.#decode();
    return super[Symbol.iterator]();
  }
}

/** Unsigned LEB128, the usual variable-length integer: small numbers (most postings) take one byte. */
function writeVarint(out: number[], value: number): void {
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 128);
  }
  out.push(rest);
}

function readVarint(reader: { bytes: Uint8Array; at: number }): number {
  let value = 0;
  let scale = 1;
  for (;;) {
    const byte = reader.bytes[reader.at++]!;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return value;
    scale *= 128;
  }
}

/** Differences between short ids are positive in practice (ids only grow), but need not be. */
const zigzag = (n: number) => (n >= 0 ? n * 2 : -n * 2 - 1);
const unzigzag = (n: number) => (n % 2 === 0 ? n / 2 : -(n + 1) / 2);

const internals = (index: MiniSearch<SearchDocument>) => index as unknown as Internals;

/** The segment's bytes: a 4-byte length, the JSON header, then every term's postings. */
export function serialiseCompact(index: MiniSearch<SearchDocument>, storedFields: readonly string[]): Uint8Array {
  const state = internals(index);
  const fieldCount = Object.keys(state._fieldIds).length;
  const shortIds: number[] = [];
  const ids: string[] = [];
  const fieldLength: number[] = [];
  const stored: unknown[][] = [];
  let previous = 0;
  for (const [shortId, id] of state._documentIds) {
    shortIds.push(shortId - previous);
    previous = shortId;
    ids.push(id);
    const lengths = state._fieldLength.get(shortId) ?? [];
    for (let field = 0; field < fieldCount; field++) fieldLength.push(lengths[field] ?? 0);
    const values = state._storedFields.get(shortId);
    stored.push(storedFields.map((name) => values?.[name] ?? null));
  }
  const terms: string[] = [];
  const termBytes: number[] = [];
  const postings: number[] = [];
  // Sorted, so an index saved again after a load gives the same bytes (the tree's own order depends on insertion).
  const entries = [...state._index].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [term, fields] of entries) {
    const before = postings.length;
    terms.push(term);
    writeVarint(postings, fields.size);
    for (const [fieldId, frequencies] of fields) {
      writeVarint(postings, fieldId);
      writeVarint(postings, frequencies.size);
      let last = 0;
      for (const docId of frequencies.keys()) {
        writeVarint(postings, zigzag(docId - last));
        last = docId;
      }
      for (const frequency of frequencies.values()) writeVarint(postings, frequency);
    }
    termBytes.push(postings.length - before);
  }
  const header: Header = {
    layout: 2,
    documentCount: state._documentCount,
    nextId: state._nextId,
    fieldIds: state._fieldIds,
    averageFieldLength: state._avgFieldLength,
    dirtCount: state._dirtCount,
    shortIds,
    ids,
    fieldLength,
    storedFields: [...storedFields],
    stored,
    terms,
    termBytes,
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const bytes = Buffer.alloc(4 + json.length + postings.length);
  bytes.writeUInt32BE(json.length, 0);
  json.copy(bytes, 4);
  bytes.set(postings, 4 + json.length);
  return bytes;
}

export function loadCompact(bytes: Uint8Array, options: Options<SearchDocument>): MiniSearch<SearchDocument> {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = view.readUInt32BE(0);
  const header = JSON.parse(view.toString('utf8', 4, 4 + headerLength)) as Header;
  if (header.layout !== 2) throw new Error(`unknown search index layout ${String(header.layout)}`);
  // MiniSearch's own loader sets the scalars and an empty inverted index; the maps are filled below.
  const index = MiniSearch.loadJS<SearchDocument>(
    {
      documentCount: header.documentCount,
      nextId: header.nextId,
      documentIds: {},
      fieldIds: header.fieldIds,
      fieldLength: {},
      averageFieldLength: header.averageFieldLength,
      storedFields: {},
      dirtCount: header.dirtCount,
      index: [],
      serializationVersion: 2,
    },
    options,
  );
  const state = internals(index);
  const fieldCount = Object.keys(header.fieldIds).length;
  let shortId = 0;
  for (let n = 0; n < header.ids.length; n++) {
    shortId += header.shortIds[n]!;
    const id = header.ids[n]!;
    state._documentIds.set(shortId, id);
    state._idToShortId.set(id, shortId);
    state._fieldLength.set(shortId, header.fieldLength.slice(n * fieldCount, (n + 1) * fieldCount));
    const values = header.stored[n]!;
    const fields: Record<string, unknown> = {};
    header.storedFields.forEach((name, position) => {
      fields[name] = values[position];
    });
    state._storedFields.set(shortId, fields);
  }
  let at = 4 + headerLength;
  const footprint = footprintOf(index);
  footprint.segmentBytes = bytes.byteLength;
  footprint.undecodedTerms = header.terms.length;
  header.terms.forEach((term, n) => {
    const length = header.termBytes[n]!;
    state._index.set(term, new TermPostings(view.subarray(at, at + length), footprint));
    at += length;
  });
  return index;
}
