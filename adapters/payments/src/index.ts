// @kerf/payments: the PaymentProcessor port's implementations (the port itself lives in
// @kerf/usecases). The embedded processor is the default.
import type { Store } from '@kerf/store';
import type { PaymentProcessor } from '@kerf/usecases';
import { EmbeddedPaymentProcessor } from './embedded.ts';

export { EmbeddedPaymentProcessor, type EmbeddedProcessorOptions } from './embedded.ts';
export { TEST_CARDS, testCard, type TestCard, type CardBehaviour } from './test-cards.ts';

export interface PaymentsConfig {
  /** The store that keeps the processor's records. */
  store: Pick<Store, 'documents'>;
  /** The service's public base URL (KERF_BASE_URL): where setup pages are. */
  baseUrl: string;
  now?: () => Date;
}

/** The processor the environment asks for: the embedded one (the only one so far). */
export function paymentProcessorFromEnv(config: PaymentsConfig, env: NodeJS.ProcessEnv = process.env): PaymentProcessor {
  const base = config.baseUrl.replace(/\/+$/, '');
  return new EmbeddedPaymentProcessor({
    store: config.store,
    ...(config.now ? { now: config.now } : {}),
    setupPageUrl: (id) => `${base}/payment-methods/setup/${id}`,
  });
}
