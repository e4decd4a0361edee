import type { Payment, PaymentListener } from '@kerf/usecases';

/** The subscribers of one processor; a failing listener never stops the others or the processor. */
export class Listeners {
  private readonly set = new Set<PaymentListener>();
  constructor(private readonly onError: (err: unknown) => void = () => {}) {}

  get size(): number { return this.set.size; }

  add(listener: PaymentListener): () => void {
    this.set.add(listener);
    return () => { this.set.delete(listener); };
  }

  async emit(payment: Payment): Promise<void> {
    for (const l of [...this.set]) {
      try { await l(structuredClone(payment)); } catch (err) { this.onError(err); }
    }
  }
}
