// The loop shared by the job worker and the event relay: runs a pass when woken and every `pollMs`
// while started (work recorded by another process is noticed within that), never two passes at
// once; a wake during a pass runs another right after it.

/**
 * A failing pass fails again at every poll (a full disk answers "database or disk is full" every
 * 250 ms): the same failure is reported once a minute at most, with how often it recurred meanwhile.
 */
export const REPEATED_ERROR_REPORT_MS = 60_000;

export class Poller {
  private active = false;
  private lastReport: { message: string; at: number; suppressed: number } | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly pass: () => Promise<void>,
    private readonly pollMs: number,
    private readonly onError: (err: unknown) => void,
    private readonly now: () => number = Date.now,
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
      this.report(err);
    } finally {
      if (this.active) {
        if (this.timer) clearTimeout(this.timer);
        this.timer = setTimeout(() => { this.timer = null; this.wake(); }, this.pollMs);
        this.timer.unref();
      }
    }
  }

  private report(err: unknown): void {
    const message = String((err as Error)?.message ?? err);
    const now = this.now();
    const last = this.lastReport;
    if (last && last.message === message && now - last.at < REPEATED_ERROR_REPORT_MS) { last.suppressed++; return; }
    const suppressed = last && last.message === message ? last.suppressed : 0;
    this.lastReport = { message, at: now, suppressed: 0 };
    this.onError(suppressed ? Object.assign(err as object, { repeated_since_last_report: suppressed }) : err);
  }
}
