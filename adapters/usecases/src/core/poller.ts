// The loop shared by the job worker and the event relay: runs a pass when woken and every `pollMs`
// while started (work recorded by another process is noticed within that), never two passes at
// once; a wake during a pass runs another right after it.

export class Poller {
  private active = false;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly pass: () => Promise<void>,
    private readonly pollMs: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Between start() and stop(): a pass checks it to end early once stopping. */
  get started(): boolean { return this.active; }

  start(): void {
    if (this.active) return;
    this.active = true;
    this.wake();
  }

  /** Runs a pass now, or right after the one under way. */
  wake(): void {
    if (!this.active) return;
    if (this.running) { this.again = true; return; }
    this.running = this.loop().finally(() => { this.running = null; });
  }

  /** No more passes; waits for the one under way. */
  async stop(): Promise<void> {
    this.active = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private async loop(): Promise<void> {
    try {
      do {
        this.again = false;
        await this.pass();
      } while (this.again && this.active);
    } catch (err) {
      this.onError(err);
    } finally {
      if (this.active) {
        if (this.timer) clearTimeout(this.timer);
        this.timer = setTimeout(() => { this.timer = null; this.wake(); }, this.pollMs);
        this.timer.unref();
      }
    }
  }
}
