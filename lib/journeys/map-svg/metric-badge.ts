/** What a metric cell's badge shows: its typed value, or the reading of the survey it is bound to. */
import type { JourneyCell } from '../content.ts';

export interface MetricBadge {
  value: number | null;
  target?: number;
  unit?: string;
  goodDirection: 'up' | 'down';
  measure?: string;
  /** Answers behind a computed value (bound cells only). */
  n?: number;
}

interface MetricFields {
  value?: number;
  target?: number;
  unit?: string;
  goodDirection?: 'up' | 'down';
  source?: { measure: string };
}

export function metricBadgeOf(cell: JourneyCell, reading: { value: number | null; n: number } | undefined): MetricBadge | undefined {
  const fields = cell as MetricFields;
  if (fields.source === undefined && typeof fields.value !== 'number') return undefined;
  const badge: MetricBadge = {
    value: fields.source ? (reading?.value ?? null) : (fields.value ?? null),
    goodDirection: fields.goodDirection ?? 'up',
  };
  if (fields.target !== undefined) badge.target = fields.target;
  if (fields.unit !== undefined) badge.unit = fields.unit;
  if (fields.source) {
    badge.measure = fields.source.measure;
    badge.n = reading?.n ?? 0;
  }
  return badge;
}

/** Met, missed, or null when there is no target or no value to judge. */
export function meetsTarget(badge: Pick<MetricBadge, 'value' | 'target' | 'goodDirection'>): boolean | null {
  if (badge.target === undefined || badge.value === null) return null;
  return badge.goodDirection === 'down' ? badge.value <= badge.target : badge.value >= badge.target;
}
