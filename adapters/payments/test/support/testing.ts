// @kerf/payments/testing: the local Stripe stand-in, for tests of other packages that run the
// Stripe processor (the service's end-to-end tests) without a network.
export { StripeFake, parseForm, type StripeFakeOptions } from './stripeFake.ts';
