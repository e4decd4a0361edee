// Interactive engine work (an image or a model made while a client waits) goes through this gate
// before it reaches the worker pool: at most `slots` such jobs in the pool at once, so they can never
// fill the pool's queue ahead of background analyses; a bounded line behind them (more -> queue_full,
// which the REST layer answers 503 with Retry-After); and a waiter whose client went away leaves the
// line without ever running.
import { EngineError } from '@kerf/engine';

interface Waiter { go(): void }

export class InteractiveGate {
  private active = 0;
  private readonly line: Waiter[] = [];

  constructor(private readonly slots: number, private readonly maxWaiting: number) {}

  get waiting(): number { return this.line.length; }

  async run<T>(signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
    if (signal?.aborted) throw abandoned();
    if (this.active >= this.slots) await this.wait(signal);
    this.active++;
    try {
      return await work();
    } finally {
      this.active--;
      this.line.shift()?.go();
    }
  }

  private wait(signal: AbortSignal | undefined): Promise<void> {
    if (this.line.length >= this.maxWaiting) {
      return Promise.reject(new EngineError('queue_full', `too many images and models are being made (${this.maxWaiting} waiting); retry later`));
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        const i = this.line.indexOf(waiter);
        if (i >= 0) this.line.splice(i, 1);
        reject(abandoned());
      };
      const waiter: Waiter = {
        go: () => { signal?.removeEventListener('abort', onAbort); resolve(); },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.line.push(waiter);
    });
  }
}

function abandoned(): EngineError {
  return new EngineError('queue_full', 'the client went away before this work started; it was dropped');
}
