/**
 * An entity is one kind of item of the single table, declared once in its area
 * (`lib/<area>[/<sub>]/entities.ts`), as ElectroDB's models are: its name (the `entity` attribute of
 * every item of it), its key builders, the attributes a reader of the API may see, the attributes
 * its gsi1 queries read, how long an item lives, and how a table-stream image of it is read. Every
 * other part of the house collects from these declarations instead of restating them: the table's
 * gsi1 projection (table.ts `gsi1Projection`, over lib/entities.ts), a table-stream mapping's filter
 * (lib/platform/event-sources.ts, from its readers' entities), a store's writes and reads.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { TABLE } from './table.ts';

type Item = Record<string, unknown>;

/** A stream image as Lambda hands it (aws-lambda's type and the SDK's describe the same JSON). */
type StreamImage = Record<string, unknown> | undefined;

export interface EntityDeclaration<Keys> {
  /** The `entity` attribute of its items: how a stream filter, a stream reader and an operator tool tell it. */
  name: string;
  /** Every key an item of it has, built here and nowhere else. */
  keys: Keys;
  /** What a reader of the API may see of it: reads project exactly these, so nothing private leaves the table. */
  publicAttributes?: readonly string[];
  /**
   * The attributes besides the keys that its gsi1 queries read: the index projects their union over
   * every entity (table.ts), and nothing else, so no secret or personal attribute is ever copied there.
   */
  indexAttributes?: readonly string[];
  /** How long an item lives once written (or written again), in seconds: DynamoDB's TTL deletes it after. */
  lifetimeSeconds?: number;
  /**
   * The table key an item of it is stored under, from its attributes. A stream image of this name
   * under any other key is no item of this entity (a layout before a migration kept it elsewhere).
   */
  keyOf?: (item: Item) => { pk: string; sk: string };
}

export interface Entity<Keys> extends EntityDeclaration<Keys> {
  /** The item a stream image holds, unmarshalled as a read returns it, when it is one of this entity's; else null. */
  fromStreamImage(image: StreamImage): Item | null;
  /** The TTL attribute of an item written at `nowMs` (an entity with `lifetimeSeconds`). */
  expiry(nowMs: number): { [TABLE.ttlAttribute]: number };
}

export function defineEntity<const Keys>(declaration: EntityDeclaration<Keys>): Entity<Keys> {
  return {
    ...declaration,
    fromStreamImage(image) {
      if ((image?.entity as AttributeValue | undefined)?.S !== declaration.name) return null;
      const item = unmarshall(image as Record<string, AttributeValue>);
      if (declaration.keyOf) {
        const key = declaration.keyOf(item);
        if (key.pk !== item.pk || key.sk !== item.sk) return null;
      }
      return item;
    },
    expiry(nowMs) {
      if (declaration.lifetimeSeconds === undefined) throw new Error(`${declaration.name} items do not expire`);
      return { [TABLE.ttlAttribute]: Math.floor(nowMs / 1000) + declaration.lifetimeSeconds };
    },
  };
}
