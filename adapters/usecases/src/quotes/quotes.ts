// Quotes: DFM + price for each item. JSON quotes answer at once; a file quote (multipart) first
// analyzes the upload and finishes in a job once the design is settled.
import type { QuoteStatus } from '@kerf/contract';
import type { Job, OutboxEvent, QuoteRecord, QuoteView } from '@kerf/store';
import { EngineError, withFlatsUsed, type Design, type MaterialNest } from '@kerf/engine';
import {
  requireScope, type Caller, type EngineContext, type UseCaseContext, isoPlus, publicView,
  invalid, notFound, type JobKindHandlers, FILE_QUOTE_JOB, FileQuoteRequest, QuoteInput,
  QuoteRequest, type QuoteItemRequest, validateInput, newLazyEvent, quoteCaching,
} from '../core/index.ts';
import { toEngineDesign, type DesignRow, getDesignRow, requireReadyDesign, submitDesign, type UploadBytes } from '../designs/index.ts';
import { computeDfm, storeDfmReport, reuseDfmReport, designForConfiguration, kMapKey, sharedParts } from '../dfm/index.ts';
import { fulfill, usShipTo } from '../fulfillment/index.ts';
import { composeQuote, presentQuote, type QuoteOutcome } from './quote-object.ts';
import { eventData, toQuote, toStored } from './stored-quotes.ts';

/** quote.ready once a quote (its stored record) is settled (ready, requires_input or blocked), quote.failed when it failed. */
function quoteEvents(ctx: UseCaseContext, doc: QuoteRecord): OutboxEvent[] {
  if (doc.status === 'processing' || doc.status === 'expired') return [];
  return [newLazyEvent(ctx, doc.status === 'failed' ? 'quote.failed' : 'quote.ready', () => eventData(doc))];
}

export const QUOTE_VALIDITY_DAYS = 30;
const WAIT_POLL_MS = 100;

function emptyQuote(ctx: UseCaseContext, id: string, status: QuoteStatus, designId: string): QuoteRecord {
  const now = ctx.now();
  return {
    id, object: 'quote', status, status_url: ctx.links.quote(id), design_id: designId, currency: 'usd',
    amount_subtotal_cents: null, amount_shipping_cents: null, amount_tax_cents: null, amount_total_cents: null,
    items: [], requirements: [], fulfillment: null, manufacturing_warnings: [],
    production_files: { review_warning: null }, error: null,
    created_at: now.toISOString(), expires_at: isoPlus(now, QUOTE_VALIDITY_DAYS),
  };
}

/** What an item's DFM and prices read of its design: the design and its flats' K-factors (the quote cache's key). */
const designVariant = (designId: string, kFactorByPart: Record<string, number>): string => `${designId}\u0000${kMapKey(kFactorByPart)}`;

/** DFM and price every item through the engine, keep each item's DFM report, and build the quote. */
async function priceQuote(ctx: UseCaseContext, accountId: string, id: string, req: QuoteRequest): Promise<QuoteRecord> {
  // Each item's design with the flats its configured materials call for. The engine looks designs up
  // by the item's design_id; an item whose materials give the same design other flats than an
  // earlier item's is given its own key (the design keeps its id, so the quote still names it).
  const designs: Record<string, Design> = {};
  const keyOf = new Map<string, string>();
  const variants: string[] = [];
  const itemRequests: QuoteItemRequest[] = [];
  for (let i = 0; i < req.items.length; i++) {
    const item = req.items[i];
    const ready = await requireReadyDesign(ctx, accountId, item.design_id, `items[${i}].design_id`);
    const { design, kFactorByPart } = await designForConfiguration(ctx, ready.row, ready.design, item.configuration);
    const variant = designVariant(item.design_id, kFactorByPart);
    variants.push(variant);
    let key = keyOf.get(variant);
    if (key === undefined) {
      key = designs[item.design_id] === undefined ? item.design_id : `${item.design_id}~${keyOf.size}`;
      keyOf.set(variant, key);
      designs[key] = design;
    }
    itemRequests.push(key === item.design_id ? item : { ...item, design_id: key });
  }
  // variant keys let the engine reuse the DFM and pricing it worked out before (the quote cache)
  const priced = await quoteOf(ctx, id, { ...req, items: itemRequests }, designs, quoteCaching(ctx).engineKeys(variants));
  const shown = presentQuote(ctx.links, priced);
  const items = [];
  for (let i = 0; i < priced.items.length; i++) {
    const item = priced.items[i];
    const used = designs[itemRequests[i]?.design_id ?? item.design_id];
    const dfm = used ? withFlatsUsed(item.dfm, used) : item.dfm;
    items.push({ ...shown.items[i], dfm: await reuseDfmReport(ctx, accountId, req.items[i].design_id, dfm, () => storeDfmReport(ctx, accountId, dfm)) });
  }
  return { ...shown, id, object: 'quote', status: priced.status, status_url: ctx.links.quote(id), items, error: null };
}

/**
 * The quote of a request whose designs are at hand: the engine's DFM and part prices of its items,
 * with the fulfillment, shipping and tax of its destination. A refused configuration or destination
 * is an error naming its field.
 */
export async function quoteOf(ctx: EngineContext, id: string, req: QuoteRequest, designs: Record<string, Design>, dfmKeys?: string[]): Promise<QuoteOutcome> {
  const dfmIds = req.items.map(() => ctx.newId('dfm'));
  const now = ctx.now().toISOString();
  // the destination is checked before the items' DFM: a bad one is the error, as the engine's request check had it
  const shipTo = usShipTo(req.ship_to);
  try {
    const prices = await ctx.engine.partPrices({ items: req.items }, designs, { now, dfmIds, ...(dfmKeys ? { dfmKeys } : {}) });
    return composeQuote(id, now, prices, fulfill(prices, shipTo, now));
  } catch (err) {
    if (err instanceof EngineError && err.code === 'invalid_configuration') {
      throw invalid('invalid_configuration', err.message, (err as EngineError & { param?: string }).param ?? 'items');
    }
    throw err;
  }
}

/**
 * The nests a quote of one design at `quantity` under `configuration` is priced from (a DFM report's
 * nest, docs/nesting.md "A DFM report's nest"): the quote path itself, so the engine's nest memo and
 * its reuse of DFM answer a quantity quoted before, and the nest is the one such a quote would keep.
 * Nothing is stored.
 */
export async function nestsOfDesign(ctx: UseCaseContext, accountId: string, designId: string, configuration: QuoteItemRequest['configuration'], quantity: number, param: string): Promise<MaterialNest[]> {
  const ready = await requireReadyDesign(ctx, accountId, designId, param);
  const { design, kFactorByPart } = await designForConfiguration(ctx, ready.row, ready.design, configuration);
  const item: QuoteItemRequest = { design_id: designId, quantity, ...(configuration ? { configuration } : {}) };
  const priced = await quoteOf(ctx, ctx.newId('quo'), { items: [item] }, { [designId]: design }, quoteCaching(ctx).engineKeys([designVariant(designId, kFactorByPart)]));
  return priced._nests ?? [];
}

/** POST /v1/quotes (JSON): every item's DFM report and price, at once. */
export async function createQuote(ctx: UseCaseContext, caller: Caller, input: QuoteRequest): Promise<QuoteView> {
  requireScope(caller, 'quotes');
  return storeQuote(ctx, caller.accountId, validateInput(QuoteRequest, input));
}

/** Prices a checked request and keeps it as a quote of the account (a cart's quote is one too). */
export async function storeQuote(ctx: UseCaseContext, accountId: string, req: QuoteRequest): Promise<QuoteView> {
  const id = ctx.newId('quo');
  const doc = await priceQuote(ctx, accountId, id, req);
  const stored = toStored(doc);
  await ctx.store.quotes.create(accountId, stored, { id, events: quoteEvents(ctx, stored), apart: sharedParts(stored) });
  return publicView(doc);
}

export interface FileQuoteInput {
  file_name: string;
  bytes: UploadBytes;
  /** the quote request without design_id (FileQuoteRequest), as the transport received it */
  request: unknown;
}

/** POST /v1/quotes (file form): store and analyze the file; the quote finishes when the design does. */
export async function createFileQuote(ctx: UseCaseContext, caller: Caller, input: FileQuoteInput): Promise<QuoteView> {
  requireScope(caller, 'quotes');
  const req = validateInput(FileQuoteRequest, input.request, { prefix: 'request' });
  const accountId = caller.accountId;
  const file = { fileName: input.file_name, bytes: input.bytes };
  const id = ctx.newId('quo');
  const design = await submitDesign(ctx, { accountId, fileName: file.fileName, bytes: file.bytes, fileQuoteId: id });
  const doc: QuoteRecord = {
    ...emptyQuote(ctx, id, 'processing', design.id),
    items: [{ design_id: design.id, quantity: req.quantity, status: 'processing', client_reference_id: req.client_reference_id ?? null, unit_amount_cents: 0, amount_cents: 0, assembly_operations_amount_cents: 0, quantity_options: [], requirements: [] }],
    _file_request: req,
    _design_id: design.id,
  };
  await ctx.store.quotes.create(accountId, doc, { id });
  // The analysis may already have settled before the quote was stored: make sure the job exists.
  const row = await getDesignRow(ctx, accountId, design.id);
  if (row.status === 'ready' || row.status === 'failed') await enqueueFileQuote(ctx, accountId, id);
  return publicView(doc);
}

async function enqueueFileQuote(ctx: UseCaseContext, accountId: string, quoteId: string): Promise<void> {
  await ctx.store.jobs.enqueue({ kind: FILE_QUOTE_JOB, resourceId: quoteId, accountId });
  ctx.notifyJobs();
}


export async function getQuote(ctx: UseCaseContext, caller: Caller, input: QuoteInput): Promise<QuoteView> {
  requireScope(caller, 'quotes');
  const { quote_id } = validateInput(QuoteInput, input, { location: 'params' });
  return readQuote(ctx, caller.accountId, quote_id);
}

export async function readQuote(ctx: UseCaseContext, accountId: string, id: string): Promise<QuoteView> {
  const rec = await ctx.store.quotes.get(accountId, id);
  if (!rec) throw notFound('quote', id, 'quote_id');
  const doc = await toQuote(ctx, accountId, rec.data);
  if (doc.status === 'processing' && doc._design_id) {
    // Self-healing: a process that died between "design settled" and "enqueue" leaves no job behind.
    const row = await ctx.store.designs.get(accountId, doc._design_id);
    if (row && (row.status === 'ready' || row.status === 'failed')) await enqueueFileQuote(ctx, accountId, id);
  }
  // A priced quote is good until expires_at; after that it must be quoted again.
  if ((doc.status === 'ready' || doc.status === 'requires_input' || doc.status === 'blocked') && typeof doc.expires_at === 'string' && doc.expires_at < ctx.now().toISOString()) {
    return publicView({ ...doc, status: 'expired' as const });
  }
  return publicView(doc);
}

/** Polls until the quote leaves `processing`, or the window closes; returns the latest view. */
export async function waitForQuote(ctx: UseCaseContext, caller: Caller, input: QuoteInput & { wait_seconds: number }): Promise<QuoteView> {
  requireScope(caller, 'quotes');
  const deadline = Date.now() + input.wait_seconds * 1000;
  for (;;) {
    const q = await readQuote(ctx, caller.accountId, input.quote_id);
    if (q.status !== 'processing' || Date.now() >= deadline || ctx.shutdown?.aborted) return q;
    await new Promise((r) => setTimeout(r, WAIT_POLL_MS));
  }
}

/**
 * A file of several unique parts cannot be priced from one item's configuration: the quote stops at
 * requires_input, and its item still names the design and carries the DFM report of what is missing.
 */
async function multiPartQuote(ctx: UseCaseContext, accountId: string, doc: QuoteRecord, row: DesignRow, design: Design): Promise<QuoteRecord> {
  const requirement = {
    code: 'assembly_configuration_required',
    message: `The file holds ${design.parts.length} unique parts; quote design '${design.id}' with a configuration that lists every part (POST /v1/quotes with JSON items).`,
    design_id: design.id,
    part_id: null,
    part_ids: design.parts.map((p) => p.id),
    field: 'items[0].configuration.parts',
    allowed_values_url: design.status_url,
  };
  const configuration = doc._file_request?.configuration;
  const configured = await designForConfiguration(ctx, row, design, configuration);
  const report = await computeDfm(ctx, configured.design, configuration ?? {}, { id: ctx.newId('dfm'), generateProductionFiles: false, paramPrefix: 'request.' });
  const dfm = await storeDfmReport(ctx, accountId, withFlatsUsed(report, configured.design));
  const item = doc.items[0];
  return { ...doc, status: 'requires_input', items: [{ ...item, status: 'requires_input', dfm, requirements: [requirement] }], requirements: [requirement] };
}

export const fileQuoteJob: JobKindHandlers = {
  async run(ctx: UseCaseContext, job: Job): Promise<void> {
    const quotes = ctx.store.quotes;
    const rec = await quotes.get(job.accountId, job.resourceId);
    if (!rec) return;
    const doc = rec.data;
    if (doc.status !== 'processing' || !doc._design_id || !doc._file_request) return;
    const row = await getDesignRow(ctx, job.accountId, doc._design_id);
    let next: QuoteRecord;
    if (row.status === 'failed') {
      next = { ...doc, status: 'failed', error: row.error ?? { code: 'analysis_failed', message: 'The analysis failed.' }, items: doc.items.map((i) => ({ ...i, status: 'failed' })) };
    } else if (row.status !== 'ready') {
      return; // not settled yet; the analysis job enqueues us again when it is
    } else {
      const design = toEngineDesign(ctx, row);
      if (design.parts.length > 1) {
        next = await multiPartQuote(ctx, job.accountId, doc, row, design);
      } else {
        const { ship_to, ...item } = doc._file_request;
        const priced = await priceQuote(ctx, job.accountId, doc.id, { items: [{ ...item, design_id: design.id }], ship_to });
        next = { ...priced, created_at: doc.created_at, expires_at: doc.expires_at };
      }
    }
    const { _file_request: _r, ...rest } = next;
    void _r;
    const stored = toStored(rest);
    await quotes.update(job.accountId, doc.id, stored, { events: quoteEvents(ctx, stored), apart: sharedParts(stored) });
  },
  async failed(ctx, job, error) {
    const quotes = ctx.store.quotes;
    const rec = await quotes.get(job.accountId, job.resourceId);
    if (!rec) return;
    const failed: QuoteRecord = { ...rec.data, status: 'failed', error };
    await quotes.update(job.accountId, job.resourceId, failed, { events: quoteEvents(ctx, failed) });
  },
};
