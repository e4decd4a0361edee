// Dropship items: an account's SKUs. An operator makes one from a line of an
// existing order (the sample order) as `requested`; approval locks unit_price_cents and may commit
// a prepaid quantity (a contract item) that later orders allocate from.
import { randomUUID } from 'node:crypto';
import { isStoreError, type DocumentCollection, type DocumentRecord, type QuoteItemRecord } from '@kerf/store';
import {
  type Caller, type UseCaseContext, listAll, publicView, UseCaseError, notFound, AdminDropshipItemApprove,
  AdminDropshipItemCreate, type objects, validateInput,
} from '../core/index.ts';
import { requireOperator, type CommerceContext } from '../commerce/index.ts';
import { requireDropship } from './access.ts';

export type DropshipPart = NonNullable<objects.DropshipItem['part']>;
export type DropshipAssembly = NonNullable<objects.DropshipItem['assembly']>;

/** A dropship item as stored: the public object (core/objects/dropship.ts) and the keys only the use cases read. */
export type ItemDoc = objects.DropshipItem & {
  _sample_order_id: string;
  _sample_line_item_id: string;
  /** contract allocations by the order's external_ref: recorded once per order, so a retry never allocates twice */
  _allocations: Record<string, number>;
};

export const items = (ctx: Pick<CommerceContext, 'store'>): DocumentCollection<ItemDoc> => ctx.store.documents<ItemDoc>('dropship_items');

const itemView = (doc: ItemDoc): ItemDoc => publicView(doc);

/** GET /v1/dropship/items: every item of the account, approved and requested. */
export async function listDropshipItems(ctx: Pick<CommerceContext, 'store'>, caller: Caller): Promise<{ items: ItemDoc[] }> {
  await requireDropship(ctx, caller);
  const docs = await listAll(items(ctx), caller.accountId, { order: 'asc' });
  return { items: docs.map(itemView) };
}

type Obj = Record<string, unknown>;

/** The quote item of the sample order's cart that made this design's lines (its configuration is the recipe). */
async function recipeOf(ctx: UseCaseContext, accountId: string, cartId: string, designId: string | null): Promise<QuoteItemRecord | null> {
  const cart = await ctx.store.carts.get(accountId, cartId);
  return cart?.data.quote.items.find((i) => i.design_id === designId) ?? null;
}

function weldsIn(recipe: QuoteItemRecord | null): boolean {
  // the configuration the item was checked under, as its DFM report keeps it (a JSON object to the quote record)
  const configuration = recipe?.dfm?.configuration as { assembly_operations?: Array<{ type?: string }> } | undefined;
  return (configuration?.assembly_operations ?? []).some((op) => op.type === 'weld');
}

/** Operator: an item from a line of an existing order (the sample order), `requested` until approved. */
export async function adminCreateDropshipItem(ctx: UseCaseContext, caller: Caller, input: AdminDropshipItemCreate): Promise<ItemDoc & { account_id: string }> {
  requireOperator(caller);
  const req = validateInput(AdminDropshipItemCreate, input);
  const orderRec = await ctx.store.orders.getUnscoped(req.order_id);
  if (!orderRec || orderRec.data.object !== 'order') throw notFound('order', req.order_id, 'order_id');
  const order = orderRec.data;
  const lines = order.line_items;
  const line = lines.find((l) => l.id === req.line_item_id);
  if (!line || (line.type !== 'part' && line.type !== 'assembly')) throw notFound('part or assembly line of that order', req.line_item_id, 'line_item_id');
  const accountId = orderRec.accountId;
  let part: DropshipPart | null = null;
  let assembly: DropshipAssembly | null = null;
  if (line.type === 'part') {
    const materials = await ctx.engine.catalog('materials');
    const m = (materials.find((x) => x.id === line.material_id) ?? {}) as Obj;
    part = { id: String(line.part_id), material: String(m.material ?? line.material_id ?? 'unknown'), material_type: String(m.type ?? 'unknown'), thickness: Number(m.thickness_mm ?? 0) };
  } else {
    const recipe = await recipeOf(ctx, accountId, order.cart_id, line.design_id);
    const partLines = lines.filter((l) => l.type === 'part' && l.design_id === line.design_id);
    const design = typeof line.design_id === 'string' ? await ctx.store.designs.get(accountId, line.design_id).catch(() => null) : null;
    assembly = {
      // the parts one assembly is made of: the design's part lines per assembly ordered
      id: String(line.design_id), part_count: Math.round(partLines.reduce((n, l) => n + l.quantity, 0) / Math.max(1, line.quantity)), has_welds: weldsIn(recipe),
      file_name: req.file_name ?? design?.name ?? `${String(line.design_id)}.step`,
    };
  }
  const id = randomUUID();
  const doc: ItemDoc = {
    id, object: 'dropship_item', sku: req.sku, name: req.name ?? line.name, status: 'requested', unit_price_cents: null,
    kind: line.type === 'part' ? 'part' : 'assembly', part, assembly, committed_quantity: null, allocated_quantity: 0,
    created_at: ctx.now().toISOString(), approved_at: null,
    _sample_order_id: req.order_id, _sample_line_item_id: req.line_item_id, _allocations: {},
  };
  try {
    await items(ctx).create(accountId, doc, { id, key: req.sku });
  } catch (err) {
    if (!isStoreError(err, 'duplicate')) throw err;
    throw new UseCaseError('conflict', 'invalid_request_error', 'sku_taken', `The account already has an item with SKU '${req.sku}'.`, { param: 'sku' });
  }
  return { ...itemView(doc), account_id: accountId };
}

async function operatorItem(ctx: Pick<CommerceContext, 'store'>, itemId: string): Promise<DocumentRecord<ItemDoc>> {
  const rec = await items(ctx).getUnscoped(itemId);
  if (!rec || rec.data.object !== 'dropship_item') throw notFound('dropship item', itemId, 'item_id');
  return rec;
}

/** Operator: approves an item at a unit price, locked from then on (and commits a prepaid quantity for a contract item). */
export async function adminApproveDropshipItem(ctx: Pick<CommerceContext, 'store' | 'now'>, caller: Caller, input: AdminDropshipItemApprove): Promise<ItemDoc & { account_id: string }> {
  requireOperator(caller);
  const req = validateInput(AdminDropshipItemApprove, input);
  for (;;) {
    const rec = await operatorItem(ctx, req.item_id);
    const item = rec.data;
    if (item.status === 'approved') {
      if (item.unit_price_cents === req.unit_price_cents && (req.committed_quantity ?? null) === item.committed_quantity) return { ...itemView(item), account_id: rec.accountId };
      throw new UseCaseError('conflict', 'invalid_request_error', 'item_price_locked', `Item '${item.sku}' is approved at ${item.unit_price_cents} cents; its price is locked.`, { param: 'unit_price_cents' });
    }
    const next: ItemDoc = { ...item, status: 'approved', unit_price_cents: req.unit_price_cents, committed_quantity: req.committed_quantity ?? null, approved_at: ctx.now().toISOString() };
    try {
      await items(ctx).update(rec.accountId, item.id, next, { expectedVersion: rec.version });
      return { ...itemView(next), account_id: rec.accountId };
    } catch (err) {
      if (!isStoreError(err, 'conflict')) throw err;
    }
  }
}

/**
 * A contract item's units for one order, allocated once per external_ref (a retry finds its own
 * allocation); 409 contract_quantity_exhausted when fewer are left.
 */
export async function allocateContract(ctx: Pick<CommerceContext, 'store'>, accountId: string, itemId: string, externalRef: string, quantity: number): Promise<void> {
  for (;;) {
    const rec = await items(ctx).get(accountId, itemId);
    if (!rec) throw notFound('dropship item', itemId);
    const item = rec.data;
    if (item._allocations[externalRef] !== undefined) return;
    const left = (item.committed_quantity ?? 0) - item.allocated_quantity;
    if (quantity > left) {
      throw new UseCaseError('conflict', 'invalid_request_error', 'contract_quantity_exhausted',
        `Item '${item.sku}' has ${left} committed units left, fewer than the ${quantity} ordered.`, { param: 'quantity', details: { committed_quantity: item.committed_quantity, allocated_quantity: item.allocated_quantity } });
    }
    const next: ItemDoc = { ...item, allocated_quantity: item.allocated_quantity + quantity, _allocations: { ...item._allocations, [externalRef]: quantity } };
    try {
      await items(ctx).update(accountId, item.id, next, { expectedVersion: rec.version });
      return;
    } catch (err) {
      if (!isStoreError(err, 'conflict')) throw err;
    }
  }
}

/** A cancelled contract order gives its units back (once: its allocation is forgotten). */
export async function releaseContract(ctx: Pick<CommerceContext, 'store'>, accountId: string, itemId: string, externalRef: string): Promise<void> {
  for (;;) {
    const rec = await items(ctx).get(accountId, itemId);
    const quantity = rec?.data._allocations[externalRef];
    if (!rec || quantity === undefined) return;
    const { [externalRef]: _released, ...rest } = rec.data._allocations;
    try {
      await items(ctx).update(accountId, itemId, { ...rec.data, allocated_quantity: rec.data.allocated_quantity - quantity, _allocations: rest }, { expectedVersion: rec.version });
      return;
    } catch (err) {
      if (!isStoreError(err, 'conflict')) throw err;
    }
  }
}
