// An order's production files for the shop (docs/api.md "Orders", docs/nesting.md "Files"): per
// material of its quote, every stock sheet of the nest its material was priced from, as a DXF and
// an SVG picture. The files are made from the nest the quote keeps (never a nest made again), stored
// once under the quote and served through signed download links like the other production files.
import {
  requireScope, type Caller, type UseCaseContext, notFound, OrderInput, validateInput, type ListEnvelope, objects,
} from '../core/index.ts';
import { nestProductionFiles, nestsOfRecord, nestViews, quoteNestHome, viewProductionFiles, type QuoteNestView } from '../quotes/index.ts';
import type { MaterialNest } from '@kerf/engine';

type OrderProductionFile = objects.OrderProductionFile;

/** The order's quote id and the nests it was priced from (none: no sheet part, or priced before nests were kept). */
async function orderNests(ctx: UseCaseContext, caller: Caller, input: OrderInput): Promise<{ quoteId: string; nests: MaterialNest[] }> {
  requireScope(caller, 'orders');
  const { order_id } = validateInput(OrderInput, input, { location: 'params' });
  const order = await ctx.store.orders.get(caller.accountId, order_id);
  if (!order || order.data.object !== 'order') throw notFound('order', order_id, 'order_id');
  // the order's quote is the paid cart's, kept with the nests it was priced from
  const quote = await ctx.store.quotes.get(caller.accountId, order.data.quote_id);
  return { quoteId: order.data.quote_id, nests: quote ? nestsOfRecord(quote.data) : [] };
}

/** GET /v1/orders/{order_id}/production-files: the nest sheets' DXF and SVG of every material of the order. */
export async function listOrderProductionFiles(ctx: UseCaseContext, caller: Caller, input: OrderInput): Promise<ListEnvelope<OrderProductionFile>> {
  const { quoteId, nests } = await orderNests(ctx, caller, input);
  return { object: 'list', data: await nestProductionFiles(ctx, quoteNestHome(quoteId), nests), has_more: false, next_cursor: null };
}

/**
 * The order's nests drawn (the order page, the MCP tool's pictures), every sheet's DXF and SVG linked,
 * and the same links as its production files: the order is read and each link signed once.
 */
export async function getOrderNests(ctx: UseCaseContext, caller: Caller, input: OrderInput): Promise<{ nests: QuoteNestView[]; files: ListEnvelope<OrderProductionFile> }> {
  const { quoteId, nests } = await orderNests(ctx, caller, input);
  const home = quoteNestHome(quoteId);
  const views = await nestViews(ctx, home, nests, true);
  return { nests: views, files: { object: 'list', data: viewProductionFiles(home, views), has_more: false, next_cursor: null } };
}
