// The pool engine's counters, for tests that count how much engine work a request cost.
import type { TestService } from './service.ts';

export interface EngineStats { running: number; queued: number; completed: number; failed: number }

export const engineStats = (t: TestService): EngineStats => (t.service.ctx.engine as unknown as { stats(): EngineStats }).stats();

/** The counters once the engine has been idle (nothing running or queued) for half a second. */
export async function engineIdle(t: TestService): Promise<EngineStats> {
  let quiet = 0;
  for (;;) {
    const s = engineStats(t);
    quiet = s.running === 0 && s.queued === 0 ? quiet + 1 : 0;
    if (quiet >= 5) return s;
    await new Promise((r) => setTimeout(r, 100));
  }
}
