// What both processors share: the store owner of their records, and the checks of a charge request
// made before any record or processor call.
import { UseCaseError, type ChargeRequest } from '@kerf/usecases';

/** The documents' owner: processor records are service-wide, like a processor's own account. */
export const OWNER = 'payment_processor';

export const invalidParam = (param: string, message: string): UseCaseError =>
  new UseCaseError('invalid', 'invalid_request_error', 'parameter_invalid', message, { param });

/** Refuses a bad amount or idempotency key; answers the charge's currency (lower case, default 'usd'). */
export function checkCharge(req: ChargeRequest): string {
  if (!Number.isInteger(req.amount_cents) || req.amount_cents < 1) throw invalidParam('amount_cents', 'The amount must be a positive whole number of cents.');
  if (typeof req.idempotency_key !== 'string' || req.idempotency_key.length === 0 || req.idempotency_key.length > 255) throw invalidParam('idempotency_key', 'A charge needs an idempotency key of 1-255 characters.');
  return (req.currency ?? 'usd').toLowerCase();
}
