// The test payment methods, named like the big processors' test cards (Stripe's `pm_card_*`
// tokens). The embedded processor behaves as each says; the Stripe stand-in used by the tests
// speaks the same ones. A product feature (the embedded processor is the default), not a test
// builder: `npm start` takes payments with these.
import type { SavedCard } from '@kerf/usecases';

export type CardBehaviour =
  | { outcome: 'succeeded' }
  | { outcome: 'declined'; decline_reason: string }
  | { outcome: 'requires_action' }
  | { outcome: 'processing'; then: 'succeeded' }
  | { outcome: 'processing'; then: 'failed'; decline_reason: string };

export interface TestCard {
  card: SavedCard;
  behaviour: CardBehaviour;
  description: string;
}

const card = (brand: string, last4: string): SavedCard => ({ brand, last4, exp_month: 12, exp_year: 2034 });

export const TEST_CARDS: Readonly<Record<string, TestCard>> = {
  pm_card_visa: { card: card('visa', '4242'), behaviour: { outcome: 'succeeded' }, description: 'always succeeds' },
  pm_card_mastercard: { card: card('mastercard', '4444'), behaviour: { outcome: 'succeeded' }, description: 'always succeeds' },
  pm_card_chargeDeclined: { card: card('visa', '0002'), behaviour: { outcome: 'declined', decline_reason: 'generic_decline' }, description: 'declined: generic_decline' },
  pm_card_chargeDeclinedInsufficientFunds: { card: card('visa', '9995'), behaviour: { outcome: 'declined', decline_reason: 'insufficient_funds' }, description: 'declined: insufficient_funds' },
  pm_card_chargeDeclinedExpiredCard: { card: card('visa', '0069'), behaviour: { outcome: 'declined', decline_reason: 'expired_card' }, description: 'declined: expired_card' },
  pm_card_authenticationRequired: { card: card('visa', '3184'), behaviour: { outcome: 'requires_action' }, description: 'needs the customer to authenticate: off-session charges end payment_not_completed' },
  pm_card_processingThenSucceeds: { card: card('visa', '1001'), behaviour: { outcome: 'processing', then: 'succeeded' }, description: 'processing, succeeds later' },
  pm_card_processingThenFails: { card: card('visa', '1002'), behaviour: { outcome: 'processing', then: 'failed', decline_reason: 'insufficient_funds' }, description: 'processing, fails later (insufficient_funds)' },
};

export const testCard = (paymentMethod: string): TestCard | null =>
  Object.prototype.hasOwnProperty.call(TEST_CARDS, paymentMethod) ? TEST_CARDS[paymentMethod] : null;
