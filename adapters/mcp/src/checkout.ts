// create_checkout: a ready quote becomes a cart whose cart_url is the web checkout a person opens to
// choose delivery, sign in and pay. There is no payment tool: an agent never pays.
import { Type } from '@sinclair/typebox';
import { createCartFromQuote, getQuote, UseCaseError, type Scope } from '@kerf/usecases';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { toolResult } from './results.ts';
import { withWebLinksNote, type ToolDef, type ToolEnv } from './tool-def.ts';

type Write = (name: string, scope: Scope, env: ToolEnv, args: Record<string, unknown>, run: (input: Record<string, unknown>) => Promise<unknown>) => Promise<unknown>;

export function checkoutTool(write: Write): ToolDef {
  return {
    name: 'create_checkout',
    title: 'Create a checkout link',
    description: 'Turns a ready quote (quote_id from quote_designs or get_quote, status ready) into a web checkout link, using the quote\'s stored configuration. Give the link to the person: they choose delivery, sign in and pay there. No tool pays.',
    input: Type.Object({
      quote_id: Type.String({ minLength: 1, maxLength: 200, description: 'A quote id (quo_...) whose status is ready.' }),
      operation_key: Type.String({ minLength: 1, maxLength: 200, pattern: '^[\\x21-\\x7e]+$', description: 'Your id for this write, e.g. a UUID. Retrying with the same key and identical input returns the same checkout link; new input needs a new key.' }),
    }, { additionalProperties: false }),
    // the quote is read (is it ready?) before the cart is made of it
    scopes: ['quotes', 'carts'],
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async run(env, args): Promise<CallToolResult> {
      const cart = (await write('create_checkout', 'carts', env, args, async (input) => {
        const quote = await getQuote(env.ctx, env.caller, { quote_id: String(input.quote_id) });
        // rule 4: requires_input and blocked findings are resolved before checkout, not after
        if (quote.status !== 'ready') {
          throw new UseCaseError('invalid', 'invalid_request_error', 'quote_not_ready',
            `Quote '${quote.id}' is ${quote.status}; create_checkout takes a ready quote: resolve its requirements or blocking findings, quote again with quote_designs, and check out the new quote.`, { param: 'quote_id' });
        }
        return createCartFromQuote(env.ctx, env.caller, { quote_id: quote.id });
      })) as Record<string, unknown>;
      const totals = cart.totals as { amount_total_cents?: number } | undefined;
      const total = typeof totals?.amount_total_cents === 'number' ? ` (total so far $${(totals.amount_total_cents / 100).toFixed(2)}; delivery and tax are added at checkout)` : '';
      return toolResult(await withWebLinksNote(env, `Checkout link for quote ${String(args.quote_id)}: ${String(cart.cart_url)}${total}. Give this link to the person: they choose delivery, sign in and pay on the web site. Creating it placed no order.`), {
        cart_id: cart.id, checkout_url: cart.cart_url, cart,
      });
    },
  };
}
