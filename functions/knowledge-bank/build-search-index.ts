/**
 * The table stream's reader of article changes: keeps each workspace's search index current
 * (lib/knowledge-bank/search/pipeline.ts has its mapping).
 */
import { searchIndex } from '../../lib/knowledge-bank/stream-readers.ts';
import { readTableStream } from '../../lib/platform/partial-batch.ts';

export const handler = readTableStream([searchIndex]);
