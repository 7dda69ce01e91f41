/**
 * The migration's bounded write rate (`cxctl migrate --rate N`): at most N item writes a second, so a
 * migration of a live table takes a known share of its write capacity (on demand, a partition serves
 * 1,000 write units a second; a move is a transaction of two items, 2 units per KB each). A token
 * bucket holding one second's worth: bursts never exceed N.
 */
export class WriteRate {
  private tokens: number;
  private last = Date.now();

  constructor(readonly perSecond: number) {
    this.tokens = perSecond;
  }

  /** Waits until `writes` item writes fit the rate, and takes them. */
  async take(writes: number): Promise<void> {
    // One step larger than a second's worth waits for a full bucket, then takes it all.
    writes = Math.min(writes, this.perSecond);
    for (;;) {
      const now = Date.now();
      this.tokens = Math.min(this.perSecond, this.tokens + ((now - this.last) / 1000) * this.perSecond);
      this.last = now;
      if (this.tokens >= writes) {
        this.tokens -= writes;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.ceil(((writes - this.tokens) / this.perSecond) * 1000)));
    }
  }
}
