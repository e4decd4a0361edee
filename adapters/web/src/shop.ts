// The buying routes: upload -> design -> quote -> cart -> checkout (cart_url) -> order. Each calls use
// cases with the signed-in person's Caller; the checkout page finds its cart by the cart_url token and
// then acts as the cart's own account only (another account's session gets "not found").
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import {
  UseCaseError, analyzeDesign, createCartFromQuote, createQuote, getAccount, bendStepPictures, getCartByToken, getDesign, getDfmPartImageUrl, getOrder, getPartImageUrl,
  getPartModelUrl, getQuote, getQuoteNests, getOrderNests, listOrders, payCart, startCardSetup, updateCart, countersinkSize, partStockChoices, schemas, type Caller, type UseCaseContext,
} from '@kerf/usecases';
import { removeSpooled, spoolDirOf, spoolUpload, type SpooledFile } from '@kerf/usecases';
import { contentSecurityPolicy, statusOfKind, whileClientWaits } from '@kerf/http';
import {
  checkoutPage, configureForm, designPage, orderPage, ordersPage, quotePage, uploadPage, type HoleGroup, type MaterialChoice, type PartChoice, type PartView,
} from './shop-pages.ts';

type Obj = Record<string, any>;
type Form = Record<string, string | string[] | undefined>;
type Person = { caller: Caller; email: string };

export interface ShopDeps {
  ctx: UseCaseContext;
  person(request: FastifyRequest): Promise<Person | null>;
  page(reply: FastifyReply, body: string, status?: number): FastifyReply;
  signInFirst(request: FastifyRequest, reply: FastifyReply): FastifyReply;
  maxUploadBytes: number;
  /** the site's CSP plus the 3D viewer's own <style> by hash, for pages that show it */
  viewerCsp: string;
}

const CHECKOUT_CSP = contentSecurityPolicy({ formAction: 'self-and-redirects' });

const one = (v: unknown): string => (Array.isArray(v) ? String(v[0] ?? '') : typeof v === 'string' ? v : '');
const many = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === 'string' && v ? [v] : []);
const QUANTITY_OPTIONS = [1, 5, 10, 25, 50, 100];

/** A file's URL or null when the use case says it is not available (e.g. a part with no flat). */
async function fileOrNull(get: () => Promise<string>): Promise<string | null> {
  try { return await get(); } catch (err) { if (err instanceof UseCaseError && err.kind !== 'unauthenticated') return null; throw err; }
}

/** The hole operations a configuration part entry lists, by the DFM capability's name. */
const HOLE_OPS = [
  { kind: 'taps', group: 'Tap', idField: 'tap_id' },
  { kind: 'countersinks', group: 'Countersink', idField: null },
  { kind: 'studs', group: 'Self-clinching stud', idField: 'stud_id' },
  { kind: 'nuts', group: 'Self-clinching nut', idField: 'nut_id' },
  { kind: 'standoffs', group: 'Standoff', idField: 'standoff_id' },
] as const;
type HoleOpKind = (typeof HOLE_OPS)[number]['kind'];

/**
 * A part's holes grouped by the operations the DFM report allows on them (holes of one size take the
 * same ones), each group with what the configuration selects on its first hole now.
 */
function holeGroups(dfmPart: Obj | undefined, designPart: Obj, config: Obj | undefined): HoleGroup[] {
  const caps: Obj | undefined = dfmPart?.capabilities;
  if (!caps) return [];
  const nameOf = (kind: HoleOpKind, id: string): string => ((caps[kind]?.options ?? []) as Obj[]).find((o) => o.id === id)?.name ?? id;
  const diameter = new Map(((designPart.holes ?? []) as Obj[]).map((h) => [h.id, h.diameter_mm as number]));
  const groups = new Map<string, HoleGroup>();
  for (const h of (caps.holes ?? []) as Obj[]) {
    const options = HOLE_OPS.flatMap(({ kind, group }) => (h[kind]?.available ? (h[kind].option_ids as string[]) : [])
      .map((id) => ({ group, value: `${kind}:${id}`, name: nameOf(kind, id) })));
    if (!options.length) continue;
    const key = `${diameter.get(h.hole_id) ?? ''}|${options.map((x) => x.value).join(',')}`;
    const g = groups.get(key) ?? { holes: [], label: '', options, selected: '' };
    g.holes.push(h.hole_id);
    groups.set(key, g);
  }
  return [...groups.values()].map((g) => {
    const d = diameter.get(g.holes[0]);
    const chosen = HOLE_OPS.map(({ kind, idField }) => {
      const e = ((config?.[kind] ?? []) as Obj[]).find((x) => x.hole_id === g.holes[0]);
      if (!e) return '';
      const id = idField ? e[idField] : g.options.find((o) => o.value.startsWith('countersinks:') && countersinkMatches(o.value.slice('countersinks:'.length), e))?.value.slice('countersinks:'.length);
      return id ? `${kind}:${id}` : '';
    }).find(Boolean) ?? '';
    return { ...g, label: `Hole${g.holes.length > 1 ? 's' : ''} ${g.holes.map((n) => `#${n}`).join(', ')}${d ? ` (⌀${Math.round(d * 10) / 10} mm)` : ''}`, selected: chosen };
  });
}

const countersinkMatches = (optionId: string, entry: Obj): boolean => {
  const size = countersinkSize(optionId);
  return !!size && size.angle === entry.angle && Math.abs(size.outer_diameter_mm - entry.outer_diameter_mm) < 1e-6;
};

/** Each part's stock picker (its own thickness or section) and, with a DFM report, its hole operations. */
async function partChoices(ctx: UseCaseContext, caller: Caller, design: Obj, dfm?: Obj, config?: Obj): Promise<PartChoice[]> {
  const stock = await partStockChoices(ctx, caller, { design_id: design.id });
  return stock.map((c) => {
    const part: Obj = (design.parts as Obj[]).find((p) => p.id === c.part_id) ?? {};
    const cfg: Obj | undefined = ((config?.parts ?? []) as Obj[]).find((p) => p.part_id === c.part_id);
    const selected = cfg?.[c.field] ?? config?.defaults?.[c.field] ?? undefined;
    const dfmPart = ((dfm?.parts ?? []) as Obj[]).find((p) => p.part_id === c.part_id);
    const boughtIn = part.bought_in ? [part.bought_in.size, String(part.bought_in.kind).replace(/_/g, ' ')].filter(Boolean).join(' ') : null;
    // bought-in hardware is left out unless the configuration makes it; any part of an assembly may be left out
    const leftOut = typeof cfg?.left_out === 'boolean' ? cfg.left_out : !!boughtIn;
    const offer = boughtIn !== null || (design.parts as Obj[]).length > 1;
    return {
      partId: c.part_id, partName: String(part.name ?? c.part_id), field: c.field, choices: c.choices, selected, holeGroups: holeGroups(dfmPart, part, cfg),
      ...(offer ? { leftOut: { selected: leftOut, boughtIn } } : {}),
    };
  });
}

/** The configuration's parts from the configure form: each part's stock and the operations chosen per hole group. */
function partsFromForm(form: Form): Obj[] {
  const parts = new Map<string, Obj>();
  const entry = (partId: string): Obj => parts.get(partId) ?? parts.set(partId, { part_id: partId }).get(partId)!;
  for (const [name, value] of Object.entries(form)) {
    const v = one(value);
    const [field, partId, holes] = name.split('.');
    if (!partId || !v) continue;
    if ((field === 'material_id' || field === 'tube_profile_id') && !holes) entry(partId)[field] = v;
    if (field === 'left_out' && !holes && (v === 'out' || v === 'make')) entry(partId).left_out = v === 'out';
    if (field !== 'hole_op' || !holes) continue;
    const [kind, optionId] = v.split(':');
    const op = HOLE_OPS.find((o) => o.kind === kind);
    if (!op || !optionId) continue;
    for (const hole of holes.split('-').map(Number).filter(Number.isInteger)) {
      const size = op.idField ? null : countersinkSize(optionId);
      if (!op.idField && !size) continue;
      const item = op.idField ? { hole_id: hole, [op.idField]: optionId, ...(op.kind === 'taps' ? {} : { side: 'top' }) } : { hole_id: hole, ...size, side: 'top' };
      const p = entry(partId);
      p[op.kind] = [...(p[op.kind] ?? []), item];
    }
  }
  return [...parts.values()];
}

/** The options of one capability (finish_id, powder_coat_color_id) that every part's DFM report allows. */
function allowedChoices(quote: Obj, capability: 'finish_id' | 'powder_coat_color_id'): MaterialChoice[] {
  const parts: Obj[] = quote.items?.[0]?.dfm?.parts ?? [];
  const lists = parts.map((p) => ((p.capabilities?.[capability]?.options ?? []) as Obj[]).filter((f) => f.available && f.id !== 'fin_none'));
  if (!lists.length) return [];
  return lists[0].filter((f) => lists.every((l) => l.some((g) => g.id === f.id))).map((f) => ({ id: f.id, name: f.name }));
}

export async function shopRoutes(app: FastifyInstance, deps: ShopDeps): Promise<void> {
  const { ctx, person, page, signInFirst } = deps;
  // The upload is spooled to disk while it arrives (size and SHA-256 taken on the way) and handed to
  // the use case as that file, never read whole into memory; removed once the page is answered.
  const spools = new WeakMap<FastifyRequest, string>();
  await app.register(multipart, {
    limits: { fileSize: deps.maxUploadBytes, files: 1, fields: 5 }, attachFieldsToBody: true,
    async onFile(this: FastifyRequest, part) {
      const { path, done } = spoolUpload(part.file, spoolDirOf(ctx));
      spools.set(this, path);
      const file = await done;
      if (part.file.truncated) throw new app.multipartErrors.RequestFileTooLargeError();
      (part as { value?: SpooledFile }).value = file;
    },
  });
  const removeSpool = async (request: FastifyRequest): Promise<void> => { const path = spools.get(request); if (path) await removeSpooled(path); };
  // the page is done with the file once its answer is on the way (onResponse: whatever ended without one)
  app.addHook('onSend', async (request, _reply, payload) => { await removeSpool(request); return payload; });
  app.addHook('onResponse', removeSpool);
  const signedIn = async (request: FastifyRequest, reply: FastifyReply): Promise<Person | null> => {
    const me = await person(request);
    if (!me) signInFirst(request, reply);
    return me;
  };
  const who = (me: Person, reply: FastifyReply) => ({ email: me.email, csrf: reply.generateCsrf() });

  app.get('/', async (request, reply) => reply.redirect((await person(request)) ? '/designs/new' : '/signin?next=%2Fdesigns%2Fnew', 303));

  app.get('/designs/new', async (request, reply) => {
    const me = await signedIn(request, reply);
    if (!me) return reply;
    return page(reply, uploadPage(who(me, reply)));
  });

  app.post('/designs', { preHandler: app.csrfProtection }, async (request, reply) => {
    const me = await signedIn(request, reply);
    if (!me) return reply;
    const file = (request.body as Obj | undefined)?.file;
    if (!file?.value?.spooled) return page(reply, uploadPage({ ...who(me, reply), error: 'Choose a STEP file to upload.' }), 400);
    try {
      const design = await analyzeDesign(ctx, me.caller, { file_name: String(file.filename || 'upload.step'), bytes: file.value as SpooledFile });
      return reply.redirect(`/designs/${encodeURIComponent(design.id)}`, 303);
    } catch (err) {
      if (!(err instanceof UseCaseError) || err.kind === 'unauthenticated') throw err;
      return page(reply, uploadPage({ ...who(me, reply), error: err.message }), statusOfKind(err.kind));
    }
  });

  app.get('/designs/:id', async (request, reply) => {
    const me = await signedIn(request, reply);
    if (!me) return reply;
    const design = await getDesign(ctx, me.caller, { design_id: (request.params as { id: string }).id }) as Obj;
    if (design.status !== 'ready') return page(reply, designPage({ ...who(me, reply), design, parts: [], configure: null }));
    // models and images are made while the page waits: abandoned with its connection
    const waiting = whileClientWaits(ctx, reply.raw);
    const parts: PartView[] = await Promise.all((design.parts as Obj[]).map(async (part) => {
      const ids = { design_id: design.id, part_id: part.id };
      return {
        part,
        formedUrl: await fileOrNull(() => getPartModelUrl(waiting, me.caller, { ...ids, view: 'formed' })),
        flatUrl: part.flat_pattern ? await fileOrNull(() => getPartModelUrl(waiting, me.caller, { ...ids, view: 'flat' })) : null,
        flatSvgUrl: part.flat_pattern || part.tube ? await fileOrNull(() => getPartImageUrl(waiting, me.caller, { ...ids, view: 'flat', format: 'svg', width: 800 })) : null,
      };
    }));
    const w = who(me, reply);
    const choices = await partChoices(ctx, me.caller, design);
    reply.header('content-security-policy', deps.viewerCsp);
    const configure = choices.some((c) => c.choices.length) ? configureForm({ csrf: w.csrf, designId: design.id, parts: choices, selected: { quantity: 1 } }) : null;
    return page(reply, designPage({ ...w, design, parts, configure }));
  });

  app.post('/designs/:id/quote', { preHandler: app.csrfProtection }, async (request, reply) => {
    const me = await signedIn(request, reply);
    if (!me) return reply;
    const form = request.body as Form;
    const quantity = Number.parseInt(one(form.quantity), 10);
    const finish = one(form.finish_id);
    const color = one(form.powder_coat_color_id);
    const risks = [...new Set(many(form.accepted_risks))].filter((r) => (schemas.ACCEPTABLE_RISKS as readonly string[]).includes(r)) as Array<(typeof schemas.ACCEPTABLE_RISKS)[number]>;
    const quote = await createQuote(ctx, me.caller, {
      items: [{
        design_id: (request.params as { id: string }).id,
        quantity: Number.isFinite(quantity) ? quantity : 0,
        configuration: {
          defaults: { ...(finish ? { finish_id: finish } : {}), ...(finish && color ? { powder_coat_color_id: color } : {}) },
          // built from the form's names; the use case validates every id and hole against the design and catalogs
          parts: partsFromForm(form) as NonNullable<schemas.Configuration['parts']>,
          ...(risks.length ? { accepted_risks: risks } : {}),
        },
        quantity_options: QUANTITY_OPTIONS.filter((n) => n !== quantity),
      }],
    });
    return reply.redirect(`/quotes/${encodeURIComponent(quote.id)}`, 303);
  });

  app.get('/quotes/:id', async (request, reply) => {
    const me = await signedIn(request, reply);
    if (!me) return reply;
    const quote = await getQuote(ctx, me.caller, { quote_id: (request.params as { id: string }).id }) as Obj;
    const item: Obj = quote.items?.[0] ?? {};
    const design = await getDesign(ctx, me.caller, { design_id: item.design_id }) as Obj;
    const w = who(me, reply);
    const dfmParts: Obj[] = item.dfm?.parts ?? [];
    const config: Obj = item.dfm?.configuration ?? {};
    const risks = dfmParts.flatMap((p) => p.issues ?? []).filter((i: Obj) => (schemas.ACCEPTABLE_RISKS as readonly string[]).includes(i.code));
    const parts = await partChoices(ctx, me.caller, design, item.dfm, config);
    const finishes = allowedChoices(quote, 'finish_id');
    const colors = allowedChoices(quote, 'powder_coat_color_id');
    // materials, finishes and colours by name, for the price table's lines
    const stockNames = Object.fromEntries([...parts.flatMap((p) => p.choices), ...finishes, ...colors].map((c) => [c.id, c.name]));
    const configure = configureForm({
      csrf: w.csrf, designId: design.id, parts, risksInFindings: true, finishes, colors, risks,
      selected: { finish_id: config.defaults?.finish_id ?? undefined, color_id: config.defaults?.powder_coat_color_id ?? undefined, quantity: item.quantity, accepted: config.accepted_risks ?? [] },
    });
    // the findings drawn on each part that has any (the DFM report's annotated image), while the page
    // waits: numbered markers only, the page's one list of findings below the image is their legend
    const waiting = whileClientWaits(ctx, reply.raw);
    const issueImages = (await Promise.all(dfmParts.filter((p) => (p.issues ?? []).length && item.dfm?.id).map(async (p) => {
      const url = await fileOrNull(() => getDfmPartImageUrl(waiting, me.caller, { dfm_id: item.dfm.id, part_id: p.part_id, format: 'svg', width: 800 }, { legend: false }));
      return url ? { partId: p.part_id as string, url } : null;
    }))).filter((x): x is { partId: string; url: string } => x !== null);
    // each bent part's steps on the brake, drawn once per report and kept with it: shown inline (data: URLs) beside the bend table
    const pictures = item.dfm?.id
      ? await bendStepPictures(ctx, me.caller, { dfm_id: item.dfm.id }).catch((err) => { if (err instanceof UseCaseError && err.kind !== 'unauthenticated') return []; throw err; })
      : [];
    const bendStepImages: Record<string, string[]> = {};
    for (const pic of pictures) (bendStepImages[pic.part_id] ??= [])[pic.step - 1] = `data:image/svg+xml;base64,${Buffer.from(pic.svg).toString('base64')}`;
    for (const [id, urls] of Object.entries(bendStepImages)) bendStepImages[id] = Array.from(urls, (u) => u ?? ''); // a step without a picture
    const partNames = Object.fromEntries((design.parts as Obj[]).map((p) => [p.id, p.name]));
    const leftOut = dfmParts.filter((p) => p.left_out).map((p) => {
      const part: Obj = (design.parts as Obj[]).find((x) => x.id === p.part_id) ?? {};
      const why = part.bought_in && p.left_out.reason === 'bought_in' ? `bought-in ${[part.bought_in.size, String(part.bought_in.kind).replace(/_/g, ' ')].filter(Boolean).join(' ')}` : 'supplied by you';
      return { name: String(part.name ?? p.part_id), quantity: (part.instance_count ?? 1) * (item.quantity ?? 1), why };
    });
    const nests = await getQuoteNests(ctx, me.caller, { quote_id: quote.id });
    return page(reply, quotePage({ ...w, quote, designName: design.name, partNames, stockNames, configure, issueImages, bendStepImages, leftOut, nests, acceptable: schemas.ACCEPTABLE_RISKS, accepted: config.accepted_risks ?? [] }));
  });

  app.post('/quotes/:id/cart', { preHandler: app.csrfProtection }, async (request, reply) => {
    const me = await signedIn(request, reply);
    if (!me) return reply;
    const cart = await createCartFromQuote(ctx, me.caller, { quote_id: (request.params as { id: string }).id });
    return reply.redirect(new URL(cart.cart_url as string).pathname, 303);
  });

  /** Every catalog entry's name by id (materials, profiles, finishes, colours): what a line shows for its selections. */
  async function catalogNames(): Promise<Record<string, string>> {
    const names: Record<string, string> = {};
    for (const kind of ['materials', 'tube_profiles', 'finishes', 'powder_coat_colors'] as const) {
      for (const e of await ctx.engine.catalog(kind) as Obj[]) names[String(e.id)] = String(e.name ?? e.display_name ?? e.id);
    }
    return names;
  }

  // ---- checkout: the cart_url page ---------------------------------------------------------------

  /** The cart behind a checkout token and, when the cart's own account is signed in, that person. */
  async function checkout(request: FastifyRequest): Promise<{ token: string; cart: Obj; me: Person | null }> {
    const token = (request.params as { token: string }).token;
    const found = token.length <= 100 ? await getCartByToken(ctx, token) : null;
    const me = await person(request);
    // another account's session learns no more than a wrong token would
    if (!found || (me && me.caller.accountId !== found.accountId)) {
      throw new UseCaseError('not_found', 'not_found_error', 'resource_missing', 'This checkout link is not valid (the cart does not exist or has expired).');
    }
    return { token, cart: found.cart as Obj, me };
  }
  const showCheckout = async (request: FastifyRequest, reply: FastifyReply, cart: Obj, token: string, me: Person | null, error?: string, status = 200) => {
    const account = me ? await getAccount(ctx, me.caller) : null;
    const partNames: Record<string, string> = {};
    const stockNames: Record<string, string> = {};
    if (me) {
      for (const id of new Set((cart.items as Obj[]).map((i) => String(i.design_id)))) {
        const design = await getDesign(ctx, me.caller, { design_id: id }).catch(() => null) as Obj | null;
        for (const p of (design?.parts ?? []) as Obj[]) partNames[p.id] = p.name;
        for (const c of design ? (await partStockChoices(ctx, me.caller, { design_id: id })).flatMap((x) => x.choices) : []) stockNames[c.id] = c.name;
      }
    }
    const q = request.query as Form | undefined;
    const notice = q?.card === 'saved' ? 'The card was saved: you can pay now.' : q?.updated ? 'Saved.' : null;
    // its "Add a card" form answers with a redirect to the processor's own page (Stripe's), which form-action governs
    reply.header('content-security-policy', CHECKOUT_CSP);
    return page(reply, checkoutPage({
      who: me ? who(me, reply) : null, cart, token, account, error, notice, partNames, stockNames: { ...await catalogNames(), ...stockNames },
      signInUrl: `/signin?next=${encodeURIComponent(`/checkout/${token}`)}`,
    }), status);
  };
  const changeCart = async (request: FastifyRequest, reply: FastifyReply, patch: Obj) => {
    const { token, cart, me } = await checkout(request);
    if (!me) return signInFirst(request, reply);
    try {
      await updateCart(ctx, me.caller, { cart_id: cart.id, ...patch });
      return reply.redirect(`/checkout/${encodeURIComponent(token)}?updated=1`, 303);
    } catch (err) {
      if (!(err instanceof UseCaseError) || !['invalid', 'conflict'].includes(err.kind)) throw err;
      return showCheckout(request, reply, cart, token, me, err.message, err.kind === 'conflict' ? 409 : 422);
    }
  };

  app.get('/checkout/:token', async (request, reply) => {
    const { token, cart, me } = await checkout(request);
    return showCheckout(request, reply, cart, token, me);
  });

  app.post('/checkout/:token/ship-to', { preHandler: app.csrfProtection }, async (request, reply) => {
    const form = request.body as Form;
    const ship_to: Obj = { country: 'US' };
    for (const f of ['name', 'company', 'street1', 'street2', 'city', 'state', 'postal_code']) {
      const v = one(form[f]).trim();
      if (v) ship_to[f] = v;
    }
    return changeCart(request, reply, { ship_to });
  });

  app.post('/checkout/:token/shipping', { preHandler: app.csrfProtection }, async (request, reply) =>
    changeCart(request, reply, { shipping_option_id: one((request.body as Form).shipping_option_id) }));

  // the card is added on the processor's page, which sends the person back to this checkout
  app.post('/checkout/:token/card', { preHandler: app.csrfProtection }, async (request, reply) => {
    const { token, me } = await checkout(request);
    if (!me) return signInFirst(request, reply);
    const back = `${request.protocol}://${request.host}/checkout/${encodeURIComponent(token)}?card=saved`;
    const { url } = await startCardSetup(ctx, me.caller, { return_url: back });
    return reply.redirect(url, 303);
  });

  app.post('/checkout/:token/pay', { preHandler: app.csrfProtection }, async (request, reply) => {
    const { token, cart, me } = await checkout(request);
    if (!me) return signInFirst(request, reply);
    try {
      // one key per cart revision: a double click or a resubmitted form answers the same payment
      const result = await payCart(ctx, me.caller, { cart_id: cart.id, payment: { type: 'card_on_file' }, idempotency_key: `web-${cart.id}-${cart.revision}` });
      const orderId = result.cart.order_id;
      return reply.redirect(orderId ? `/orders/${encodeURIComponent(orderId)}` : `/checkout/${encodeURIComponent(token)}`, 303);
    } catch (err) {
      if (!(err instanceof UseCaseError) || err.kind === 'unauthenticated') throw err;
      return showCheckout(request, reply, cart, token, me, err.message, 402);
    }
  });

  // ---- orders ------------------------------------------------------------------------------------

  app.get('/orders', async (request, reply) => {
    const me = await signedIn(request, reply);
    if (!me) return reply;
    const { data } = await listOrders(ctx, me.caller, { limit: 100 });
    return page(reply, ordersPage({ ...who(me, reply), orders: data as Obj[] }));
  });

  app.get('/orders/:id', async (request, reply) => {
    const me = await signedIn(request, reply);
    if (!me) return reply;
    const input = { order_id: (request.params as { id: string }).id };
    const order = await getOrder(ctx, me.caller, input);
    // the nest for the shop: the sheets its material was priced from, drawn, each with its DXF and SVG
    const { nests } = await getOrderNests(ctx, me.caller, input);
    return page(reply, orderPage({ ...who(me, reply), order: order as Obj, catalogNames: await catalogNames(), nests }));
  });
}
