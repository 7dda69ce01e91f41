/**
 * The table stream's reader of article changes: keeps each workspace's search index current
 * (lib/knowledge-bank/search/pipeline.ts has its mapping, which names this reader).
 */
import { searchIndexBuilder } from '../../lib/knowledge-bank/search/pipeline.ts';
import { searchIndex } from '../../lib/knowledge-bank/stream-readers.ts';
import { readTableStream } from '../../lib/platform/partial-batch.ts';

export const handler = readTableStream(searchIndexBuilder, [searchIndex]);
