/**
 * How fast an export reads a survey's responses. Read at full speed, one Lambda takes a 1 MB Query page
 * (256 read units, strongly consistent) every few tens of milliseconds: the whole 3,000 read units a
 * second of the partition at the end of the survey's responses, which every list, continuation and
 * change-feed read of that survey then has to share (AWS: "Avoiding sudden spikes in read activity",
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-query-scan.html, advises a
 * Query that reads a lot to rate-limit itself on the capacity each page reports). So a writer spends
 * at most a third of a partition's read units a second; two writers at once (the queue's concurrency,
 * pipeline.ts) still leave a third. 100,000 responses of 4 KB (about 93,000 read units) take about 93 s,
 * inside the writer's 300 s.
 */
export const EXPORT_PACE = { readUnitsPerSecond: 1_000 } as const;

/**
 * A leaky bucket over read units: `spent(units)` waits until spending them keeps the average at the
 * pace, allowing one second's worth at once.
 */
export class ReadPace {
  private readyAt: number;

  constructor(
    private readonly unitsPerSecond: number = EXPORT_PACE.readUnitsPerSecond,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {
    this.readyAt = now();
  }

  async spent(units: number): Promise<void> {
    const now = this.now();
    this.readyAt = Math.max(this.readyAt, now - 1000) + (units / this.unitsPerSecond) * 1000;
    if (this.readyAt > now) await this.sleep(this.readyAt - now);
  }
}
