// Carts (docs/api.md "Carts and payment"): a quote with a destination, a chosen shipping option and totals with
// tax, which a person checks out on the web site (`cart_url`) or the API pays with the card on file
// (./pay.ts). Every change re-quotes and bumps `revision`; a cart with a payment under way or done
// does not change any more.
import type { CartTotals, ShippingOption } from '@kerf/contract';
import { isStoreError, type CartRecord, type DocumentRecord, type QuoteView } from '@kerf/store';
import {
  requireScope, type Caller, type UseCaseContext, publicView, UseCaseError, invalid, notFound, CartCreate,
  CartFromQuote, CartInput, CartUpdate, type QuoteItemRequest, type QuoteRequest, type ShipTo, validateInput,
} from '../core/index.ts';
import { salesTaxCents, usAddressProblem } from '../fulfillment/index.ts';
import { sharedParts } from '../dfm/index.ts';
import { readQuote, storeQuote } from '../quotes/index.ts';

/** A checkout page's token (the capability in cart_url), kept by its own id: the page finds the cart without an account. */
interface CartToken { id: string; cart_id: string }

const CART_TOKENS = 'cart_tokens';
const REQUIRED_SHIP_TO = ['name', 'street1', 'city', 'state', 'postal_code', 'country'] as const;

/** A cart's ship_to: a US address with name, street1, city, state, postal_code. */
function checkShipTo(s: ShipTo): ShipTo {
  if (s.country !== undefined && s.country.toUpperCase() !== 'US') {
    throw invalid('unsupported_country', `Carts ship within the US only; ship_to.country '${s.country}' is not supported.`, 'ship_to.country');
  }
  for (const f of REQUIRED_SHIP_TO) {
    if (!s[f]) throw invalid('parameter_missing', `Missing required parameter 'ship_to.${f}'.`, `ship_to.${f}`);
  }
  const problem = usAddressProblem(s.state, s.postal_code);
  if (problem) throw invalid('parameter_invalid', problem.message, problem.param);
  return { ...s, country: 'US' };
}

function shippingOptions(quote: QuoteView): ShippingOption[] {
  return quote.fulfillment?.shipping_options ?? [];
}

function totalsOf(quote: QuoteView, shipTo: ShipTo | null, option: ShippingOption | null): CartTotals {
  const subtotal = quote.amount_subtotal_cents;
  const surcharge = option?.production_surcharge_cents ?? 0;
  // tax applies to the goods and the production surcharge, not to shipping (fulfillment/tax.ts)
  const tax = shipTo && subtotal !== null ? salesTaxCents(shipTo.state!, subtotal + surcharge) : null;
  const shipping = option ? option.amount_cents : null;
  return {
    amount_subtotal_cents: subtotal,
    amount_shipping_cents: shipping,
    amount_production_surcharge_cents: surcharge,
    amount_tax_cents: tax,
    tax_status: tax === null ? 'destination_required' : 'calculated',
    amount_total_cents: subtotal === null ? null : subtotal + surcharge + (shipping ?? 0) + (tax ?? 0),
  };
}

/** The quote's option with this id, or a 422 naming the field. */
function pickOption(quote: QuoteView, id: string | null | undefined): ShippingOption | null {
  if (id === null || id === undefined) return null;
  const options = shippingOptions(quote);
  const found = options.find((o) => o.id === id);
  if (found) return found;
  const why = options.length === 0 ? 'the cart has no shipping options yet: set ship_to first' : `choose one of ${options.map((o) => o.id).join(', ')}`;
  throw invalid('unknown_shipping_option', `Unknown shipping option '${id}': ${why} (quote.fulfillment.shipping_options).`, 'shipping_option_id');
}

/** What a cart's quote and chosen option give it. */
type PricedFields = 'shipping_option_id' | 'selected_shipping_option' | 'totals' | 'manufacturing_warnings' | 'expires_at';

/** A cart priced from a quote: totals, the selected option and the quote's warnings, in place of any it had. */
function priced(cart: Omit<CartRecord, PricedFields> & Partial<Pick<CartRecord, PricedFields>>, option: ShippingOption | null): CartRecord {
  return {
    ...cart,
    shipping_option_id: option?.id ?? null,
    selected_shipping_option: option,
    totals: totalsOf(cart.quote, cart.ship_to, option),
    manufacturing_warnings: cart.quote.manufacturing_warnings,
    expires_at: cart.quote.expires_at,
  };
}

async function newCart(ctx: UseCaseContext, accountId: string, items: QuoteItemRequest[], quote: QuoteView, shipTo: ShipTo | null, optionId: string | undefined, clientReferenceId: string | null): Promise<CartRecord> {
  const option = pickOption(quote, optionId);
  const id = ctx.newId('crt');
  const token = ctx.newId('ctk');
  const now = ctx.now().toISOString();
  const doc = priced({
    id, object: 'cart', revision: 1, status: 'open', checked_out: false,
    cart_url: ctx.links.cartPage(token), status_url: ctx.links.cart(id),
    items, ship_to: shipTo, shipping_option_id: null, quote,
    order_id: null, payment: null, client_reference_id: clientReferenceId, created_at: now,
    _token: token, _intent: null, _attempt: 0,
  }, option);
  // the token's own record first: a cart is never without the page that opens it
  await ctx.store.documents<CartToken>(CART_TOKENS).create(accountId, { id: token, cart_id: id }, { id: token });
  // the quote's shared parts (its settled reports, line items) kept once per account, as a stored quote's
  await ctx.store.carts.create(accountId, doc, { id, apart: sharedParts(quote) });
  return doc;
}

/**
 * POST /v1/carts: quotes the items (kept as a quote of the account too) and opens a cart on it,
 * with `cart_url`, the web site's checkout page. The MCP create_checkout tool uses createCartFromQuote.
 */
export async function createCart(ctx: UseCaseContext, caller: Caller, input: CartCreate): Promise<CartRecord> {
  requireScope(caller, 'carts');
  const req = validateInput(CartCreate, input);
  const shipTo = req.ship_to ? checkShipTo(req.ship_to) : null;
  if (req.shipping_option_id !== undefined && !shipTo) throw invalid('unknown_shipping_option', 'A shipping option needs ship_to: the options are rated for the destination.', 'shipping_option_id');
  const quote = await storeQuote(ctx, caller.accountId, { items: req.items, ...(shipTo ? { ship_to: shipTo } : {}) });
  return view(ctx, await newCart(ctx, caller.accountId, req.items, quote, shipTo, req.shipping_option_id, req.client_reference_id ?? null));
}

/** A cart on a quote the caller already has (its items, configuration and ship_to), without pricing it again. */
export async function createCartFromQuote(ctx: UseCaseContext, caller: Caller, input: CartFromQuote): Promise<CartRecord> {
  requireScope(caller, 'carts');
  const req = validateInput(CartFromQuote, input);
  const quote = await readQuote(ctx, caller.accountId, req.quote_id);
  if (quote.status === 'processing' || quote.status === 'failed' || quote.status === 'expired') {
    throw invalid('quote_not_ready', `Quote '${quote.id}' is ${quote.status}; a cart needs a priced quote (ready, requires_input or blocked).`, 'quote_id');
  }
  const items = quote.items.map((it): QuoteItemRequest => {
    // the configuration the item's DFM report was checked under, as the report (a JSON object here) keeps it
    const configuration = it.dfm?.configuration as QuoteItemRequest['configuration'] | undefined;
    return {
      design_id: it.design_id, quantity: it.quantity,
      ...(configuration ? { configuration } : {}),
      ...(typeof it.client_reference_id === 'string' ? { client_reference_id: it.client_reference_id } : {}),
    };
  });
  const shipTo = (quote as { ship_to?: ShipTo }).ship_to ?? null;
  return view(ctx, await newCart(ctx, caller.accountId, items, quote, shipTo ? checkShipTo(shipTo) : null, req.shipping_option_id, req.client_reference_id ?? null));
}

export async function getCart(ctx: UseCaseContext, caller: Caller, input: CartInput): Promise<CartRecord> {
  requireScope(caller, 'carts');
  const { cart_id } = validateInput(CartInput, input, { location: 'params' });
  return view(ctx, (await readCart(ctx, caller.accountId, cart_id)).data);
}

/** PATCH /v1/carts/{id}: new items, destination or shipping option; re-quotes, recalculates, bumps revision. */
export async function updateCart(ctx: UseCaseContext, caller: Caller, input: CartUpdate): Promise<CartRecord> {
  requireScope(caller, 'carts');
  const req = validateInput(CartUpdate, input);
  const shipToIn = req.ship_to ? checkShipTo(req.ship_to) : undefined;
  for (;;) {
    const rec = await readCart(ctx, caller.accountId, req.cart_id);
    const cart = rec.data;
    requireChangeable(ctx, cart);
    const items = req.items ?? cart.items;
    const shipTo = shipToIn ?? cart.ship_to;
    const quoteReq: QuoteRequest = { items, ...(shipTo ? { ship_to: shipTo } : {}) };
    const quote = await storeQuote(ctx, caller.accountId, quoteReq);
    // an option asked for now must exist; one kept from before is dropped when the new quote lacks it
    let option: ShippingOption | null;
    if (req.shipping_option_id !== undefined) option = pickOption(quote, req.shipping_option_id);
    else option = shippingOptions(quote).find((o) => o.id === cart.shipping_option_id) ?? null;
    const next = priced({ ...cart, items, ship_to: shipTo, quote, revision: cart.revision + 1, payment: cart.payment?.status === 'failed' ? cart.payment : null, _attempt: 0, _failed_by: null }, option);
    try {
      await ctx.store.carts.update(caller.accountId, cart.id, next, { expectedVersion: rec.version, apart: sharedParts(quote) });
      return view(ctx, next);
    } catch (err) {
      if (!isStoreError(err, 'conflict')) throw err; // changed meanwhile (another PATCH, a pay): look again
    }
  }
}

export async function readCart(ctx: UseCaseContext, accountId: string, cartId: string): Promise<DocumentRecord<CartRecord>> {
  const rec = await ctx.store.carts.get(accountId, cartId);
  if (!rec) throw notFound('cart', cartId, 'cart_id');
  return rec;
}

export function isExpired(ctx: UseCaseContext, cart: CartRecord): boolean {
  return cart.status === 'open' && cart.expires_at < ctx.now().toISOString();
}

/** Refuses a change to a cart that is paid, being paid, or expired. */
function requireChangeable(ctx: UseCaseContext, cart: CartRecord): void {
  if (cart.status === 'checked_out') throw cartCheckedOut(cart);
  if (isExpired(ctx, cart) || cart.status === 'expired') throw cartExpired(cart);
  if (cart._intent) throw paymentInProgress(cart);
}

/** The cart as GET returns it: expiry applied, bookkeeping dropped. */
export function view(ctx: UseCaseContext, cart: CartRecord): CartRecord {
  return publicView(isExpired(ctx, cart) ? { ...cart, status: 'expired' as const } : cart);
}

/** The web site's checkout page opens a cart by its token (the capability in cart_url); null when unknown. */
export async function getCartByToken(ctx: UseCaseContext, token: string): Promise<{ accountId: string; cart: CartRecord } | null> {
  const t = await ctx.store.documents<CartToken>(CART_TOKENS).getUnscoped(token);
  if (!t) return null;
  const rec = await ctx.store.carts.get(t.accountId, t.data.cart_id);
  return rec ? { accountId: t.accountId, cart: view(ctx, rec.data) } : null;
}

export const cartCheckedOut = (cart: CartRecord): UseCaseError =>
  new UseCaseError('conflict', 'invalid_request_error', 'cart_checked_out', `Cart '${cart.id}' is already checked out (order '${cart.order_id}').`, { details: { order_id: cart.order_id } });

export const cartExpired = (cart: CartRecord): UseCaseError =>
  new UseCaseError('conflict', 'invalid_request_error', 'cart_expired', `Cart '${cart.id}' expired at ${cart.expires_at}; create a new cart from the items.`);

export const paymentInProgress = (cart: CartRecord): UseCaseError =>
  new UseCaseError('conflict', 'invalid_request_error', 'payment_in_progress',
    `A payment of cart '${cart.id}' is under way; retry the pay request with the same Idempotency-Key, or GET the cart until it settles.`, { retryable: true, retryAfterSeconds: 2 });
