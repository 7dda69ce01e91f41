/** Where capacity units land, as pricing.ts and key-ranges.ts both name it. */
import type { TABLE } from '../../lib/platform/data/table.ts';

export type IndexName = 'table' | typeof TABLE.gsi1.name;

/** One item of the table, or one entry of gsi1 (its pk and sk are gsi1pk and gsi1sk). */
export interface KeyRef {
  index: IndexName;
  pk: string;
  sk: string;
}

/** A key range: the keys of one partition key (and index) that start with `prefix`. */
export interface RangeRef {
  index: IndexName;
  pk: string;
  prefix: string;
}
