// An order's production files for the shop (docs/api.md "Orders", docs/nesting.md "Files"): per
// material of its quote, every stock sheet of the nest its material was priced from, as a DXF and
// an SVG picture. The files are made from the nest the quote keeps (never a nest made again), stored
// once under the quote and served through signed download links like the other production files.
import {
  requireScope, type Caller, type UseCaseContext, notFound, OrderInput, validateInput, type ListEnvelope, objects,
} from '../core/index.ts';
import { nestSheetFileName, nestSheetLinks, nestsOfRecord } from '../quotes/index.ts';

type OrderProductionFile = objects.OrderProductionFile;

/** GET /v1/orders/{order_id}/production-files: the nest sheets' DXF and SVG of every material of the order. */
export async function listOrderProductionFiles(ctx: UseCaseContext, caller: Caller, input: OrderInput): Promise<ListEnvelope<OrderProductionFile>> {
  requireScope(caller, 'orders');
  const { order_id } = validateInput(OrderInput, input, { location: 'params' });
  const order = await ctx.store.orders.get(caller.accountId, order_id);
  if (!order || order.data.object !== 'order') throw notFound('order', order_id, 'order_id');
  // the order's quote is the paid cart's, kept with the nests it was priced from
  const quote = await ctx.store.quotes.get(caller.accountId, order.data.quote_id);
  const data: OrderProductionFile[] = [];
  for (const n of quote ? nestsOfRecord(quote.data) : []) {
    const count = n.result.sheets.length;
    for (let i = 0; i < count; i++) {
      const links = await nestSheetLinks(ctx, quote!.id, n, i);
      for (const [kind, ext, contentType] of [['nest_dxf', 'dxf', 'application/dxf'], ['nest_svg', 'svg', 'image/svg+xml']] as const) {
        data.push({
          object: 'production_file', kind, material_id: n.material_id, sheet: i + 1, sheet_count: count, sampled: n.sampled,
          file_name: nestSheetFileName(quote!.id, n.material_id, i, ext), content_type: contentType, url: ext === 'dxf' ? links.dxf : links.svg,
        });
      }
    }
  }
  return { object: 'list', data, has_more: false, next_cursor: null };
}
