// @kerf/payments: the PaymentProcessor port's implementations (the port itself lives in
// @kerf/usecases). The embedded processor is the default; STRIPE_SECRET_KEY selects Stripe.
import type { Store } from '@kerf/store';
import type { PaymentProcessor } from '@kerf/usecases';
import { EmbeddedPaymentProcessor } from './embedded.ts';
import { StripePaymentProcessor } from './stripe.ts';

export { EmbeddedPaymentProcessor, type EmbeddedProcessorOptions } from './embedded.ts';
export { StripePaymentProcessor, toPayment as stripePaymentOf, type StripeProcessorOptions } from './stripe.ts';
export { TEST_CARDS, testCard, type TestCard, type CardBehaviour } from './test-cards.ts';
export { paymentRoutes, SETUP_PAGE_PATH, WEBHOOK_PATH, type PaymentRoutesOptions } from './pages.ts';

export interface PaymentsConfig {
  /** The store that keeps the processor's records (the embedded processor's payments, Stripe's customer ids). */
  store: Pick<Store, 'documents'>;
  /** The service's public base URL (KERF_BASE_URL): setup pages and Checkout's return address. */
  baseUrl: string;
  now?: () => Date;
}

/** Stripe when STRIPE_SECRET_KEY is set (STRIPE_WEBHOOK_SECRET verifies its webhooks), else the embedded processor. */
export function paymentProcessorFromEnv(config: PaymentsConfig, env: NodeJS.ProcessEnv = process.env): PaymentProcessor {
  const base = config.baseUrl.replace(/\/+$/, '');
  if (env.STRIPE_SECRET_KEY) {
    return new StripePaymentProcessor({
      secretKey: env.STRIPE_SECRET_KEY,
      webhookSecret: env.STRIPE_WEBHOOK_SECRET || null,
      store: config.store,
      returnUrl: `${base}/account`,
    });
  }
  return new EmbeddedPaymentProcessor({
    store: config.store,
    ...(config.now ? { now: config.now } : {}),
    setupPageUrl: (id) => `${base}/payment-methods/setup/${id}`,
  });
}
