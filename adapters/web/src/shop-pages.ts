// The buying pages: upload, design (3D viewer, flat pattern, facts), quote (configure, DFM findings,
// prices), checkout (cart_url), orders. Templates only: the routes (./shop.ts) fetch through use cases.
import { alert, html, layout, raw, MODEL_VIEWER, SITE_ASSETS, type Html } from './html.ts';

type Obj = Record<string, any>;
export interface Who { email: string; csrf: string }

export const money = (cents: number | null | undefined): string => (cents == null ? '—' : `$${(cents / 100).toFixed(2)}`);
const csrfField = (csrf: string): Html => html`<input type="hidden" name="_csrf" value="${csrf}">`;
const mm = (v: number | null | undefined): string => (v == null ? '—' : `${Math.round(v * 100) / 100} mm`);

export function uploadPage(o: Who & { error?: string | null }): string {
  return layout('Upload a design', html`${alert(o.error)}
<p>Upload a STEP file (.step or .stp) of sheet-metal or tube parts. We find each unique part, unfold it and check it can be made.</p>
<form id="upload-form" method="post" action="/designs" enctype="multipart/form-data">
${csrfField(o.csrf)}
<div id="drop-zone" class="drop">
<p>Drag a STEP file here, or choose one:</p>
<label for="file">STEP file</label>
<input id="file" name="file" type="file" accept=".step,.stp,.STEP,.STP" required>
</div>
<progress id="upload-progress" max="100" value="0" hidden aria-label="Upload progress"></progress>
<p id="upload-status" role="status" aria-live="polite"></p>
<button type="submit">Upload</button>
</form>`, { ...o, scripts: [`${SITE_ASSETS}upload.js`] });
}

/** "round 50 mm OD × 3 mm wall, 250 mm long" */
const tubeText = (t: Obj): string => `${t.profile} ${t.profile === 'round' ? `${mm(t.outer_diameter_mm)} OD` : `${mm(t.outer_width_mm)} × ${mm(t.outer_height_mm)}`} × ${mm(t.wall_thickness_mm)} wall, ${mm(t.length_mm)} long`;

export interface PartView { part: Obj; formedUrl: string | null; flatUrl: string | null; flatSvgUrl: string | null }

function partSection(v: PartView, i: number): Html {
  const p = v.part;
  const viewerId = `viewer-${i}`;
  const viewer = v.formedUrl
    ? html`<model-viewer id="${viewerId}" src="${v.formedUrl}" loading="eager" camera-controls touch-action="pan-y" interaction-prompt="none" shadow-intensity="0.6" alt="3D model of ${p.name}"><span slot="ar-button" hidden></span><span slot="exit-webxr-ar-button" hidden></span><span slot="progress-bar"></span></model-viewer>
${v.flatUrl ? html`<div data-viewer="${viewerId}" role="group" aria-label="Model view">
<button type="button" class="outline" data-src="${v.formedUrl}" aria-pressed="true" hidden>Formed</button>
<button type="button" class="outline" data-src="${v.flatUrl}" aria-pressed="false" hidden>Flat</button>
</div>` : raw('')}
<noscript><p><a href="${v.formedUrl}">Download the 3D model (GLB)</a></p></noscript>`
    : html`<p>No 3D model is available for this part.</p>`;
  const flat = v.flatSvgUrl
    ? p.tube
      ? html`<figure class="flat"><img src="${v.flatSvgUrl}" alt="Unrolled outer wall of ${p.name} with numbered holes"><figcaption>Unrolled outer wall: end cuts and holes, numbered.</figcaption></figure>`
      : html`<figure class="flat"><img src="${v.flatSvgUrl}" alt="Flat pattern of ${p.name} with bend lines and numbered holes"><figcaption>Flat pattern: bend lines dashed, holes numbered.</figcaption></figure>`
    : html`<p>${p.unsupported_message ?? 'This part has no flat pattern.'}</p>`;
  const warnings: Obj[] = p.warnings ?? [];
  const dims = p.flat_pattern_dimensions;
  return html`<article class="part" id="part-${p.id}">
<header><h2>${p.name}</h2><p>${p.instance_count} in the design · ${p.bought_in ? html`<strong class="left-out">bought-in hardware (${[p.bought_in.size, String(p.bought_in.kind).replace(/_/g, ' ')].filter(Boolean).join(' ')}): left out of the job</strong>` : p.manufacturable ? 'can be made' : html`<strong>cannot be made as modelled</strong>`}</p></header>
${p.bought_in ? html`<p class="left-out-why">${p.bought_in.message}</p>` : raw('')}
<div class="part-views"><div>${viewer}</div><div>${flat}</div></div>
<table><tbody>
<tr><th scope="row">Process</th><td>${String(p.suggested_process ?? '').replace(/_/g, ' ')}</td></tr>
${p.tube ? html`<tr><th scope="row">Tube</th><td>${tubeText(p.tube)}</td></tr>` : html`<tr><th scope="row">Thickness</th><td>${mm(p.detected_thickness_mm)}</td></tr>`}
<tr><th scope="row">Bends</th><td>${p.bend_count}${(p.bends ?? []).length ? html` (${(p.bends as Obj[]).map((b) => `${Math.round(b.angle_degrees)}°`).join(', ')})` : raw('')}</td></tr>
<tr><th scope="row">Holes</th><td>${p.hole_count}${(p.holes ?? []).length ? html` (${(p.holes as Obj[]).map((h) => `#${h.id} ⌀${Math.round(h.diameter_mm * 10) / 10} mm`).join(', ')})` : raw('')}</td></tr>
${dims ? html`<tr><th scope="row">Flat size</th><td>${mm(dims.length_mm ?? dims.x_mm)} × ${mm(dims.width_mm ?? dims.y_mm)}</td></tr>` : raw('')}
</tbody></table>
${warnings.length ? html`<h3>Notes on this part</h3><ul>${warnings.map((w) => html`<li>${w.message}</li>`)}</ul>` : raw('')}
</article>`;
}

export interface MaterialChoice { id: string; name: string }

/** Holes of one part that take the same operations (the same DFM options): one select for them all. */
export interface HoleGroup {
  /** the hole ids, joined by '-' (the select's name carries them to the post) */
  holes: number[];
  label: string;
  options: Array<{ group: string; value: string; name: string }>;
  selected: string;
}

/** One part's stock picker (a sheet material or a tube profile of its own size) and its hole operations. */
export interface PartChoice {
  partId: string;
  partName: string;
  field: 'material_id' | 'tube_profile_id';
  choices: MaterialChoice[];
  selected?: string;
  holeGroups: HoleGroup[];
  /** whether the part is left out of the job now, and what the design took it for (bought-in hardware) */
  leftOut?: { selected: boolean; boughtIn: string | null };
}

/** One box per acceptable finding code (accepted_risks names codes), listing each finding it covers. */
function riskBoxes(risks: Obj[], accepted: string[]): Html {
  const codes = [...new Set(risks.map((r) => String(r.code)))];
  if (!codes.length) return raw('');
  return html`<fieldset><legend>Risks you may accept</legend>${codes.map((code) => html`<label><input type="checkbox" name="accepted_risks" value="${code}"${accepted.includes(code) ? raw(' checked') : raw('')}>
I accept: ${risks.filter((r) => r.code === code).map((r) => r.message).join(' ')}</label>`)}</fieldset>`;
}

const FIELD_TEXT = { material_id: 'Material', tube_profile_id: 'Tube profile' } as const;

function partFields(p: PartChoice, many: boolean): Html {
  const id = `${p.field}-${p.partId}`;
  const label = many ? `${FIELD_TEXT[p.field]} for ${p.partName}` : FIELD_TEXT[p.field];
  const option = (m: MaterialChoice) => html`<option value="${m.id}"${m.id === p.selected ? raw(' selected') : raw('')}>${m.name}</option>`;
  const stock = p.choices.length
    ? html`<label for="${id}">${label}</label><select id="${id}" name="${p.field}.${p.partId}" required>${p.choices.map(option)}</select>`
    : html`<p>No ${FIELD_TEXT[p.field].toLowerCase()} in the catalog fits ${p.partName}.</p>`;
  const groups = p.holeGroups.map((g) => {
    const gid = `holes-${p.partId}-${g.holes.join('-')}`;
    const kinds = [...new Set(g.options.map((o) => o.group))];
    return html`<label for="${gid}">${g.label}</label><select id="${gid}" name="hole_op.${p.partId}.${g.holes.join('-')}">
<option value="">As modelled (plain hole)</option>${kinds.map((k) => html`<optgroup label="${k}">${g.options.filter((o) => o.group === k).map((o) => html`<option value="${o.value}"${o.value === g.selected ? raw(' selected') : raw('')}>${o.name}</option>`)}</optgroup>`)}</select>`;
  });
  const lo = p.leftOut;
  const leaveOut = lo ? html`<label for="left_out-${p.partId}">${many ? `Make or leave out ${p.partName}` : 'Make or leave out'}</label><select id="left_out-${p.partId}" name="left_out.${p.partId}">
<option value="make"${lo.selected ? raw('') : raw(' selected')}>Make it</option>
<option value="out"${lo.selected ? raw(' selected') : raw('')}>Leave it out${lo.boughtIn ? ` (bought-in ${lo.boughtIn})` : ' (I supply it)'}: not made, not priced</option></select>` : raw('');
  // a left-out part needs no stock (bought-in hardware has none to choose)
  if (lo?.selected && !p.choices.length) return html`<div class="part-config" id="config-${p.partId}">${leaveOut}</div>`;
  return html`<div class="part-config" id="config-${p.partId}">${leaveOut}${stock}${groups.length ? html`<fieldset><legend>Hole operations${many ? ` on ${p.partName}` : ''}</legend>${groups}</fieldset>` : raw('')}</div>`;
}

/**
 * The configure form: each part's material (sheet, of its own thickness) or tube profile (of its own
 * section), and once a DFM report says what fits: finish, color, hole operations per group of holes;
 * quantity and accepted risks.
 */
export function configureForm(o: {
  /** the quote page: each acceptable risk's box sits beside its finding in the findings list (form="configure") */
  risksInFindings?: boolean;
  csrf: string; designId: string; parts: PartChoice[]; finishes?: MaterialChoice[]; colors?: MaterialChoice[];
  selected: { finish_id?: string; color_id?: string; quantity?: number; accepted?: string[] }; risks?: Obj[];
}): Html {
  const s = o.selected;
  const option = (m: MaterialChoice, current?: string) => html`<option value="${m.id}"${m.id === current ? raw(' selected') : raw('')}>${m.name}</option>`;
  const many = o.parts.length > 1;
  return html`<form method="post" action="/designs/${encodeURIComponent(o.designId)}/quote" id="configure">
${csrfField(o.csrf)}
${o.parts.map((p) => partFields(p, many))}
${o.finishes?.length ? html`<label for="finish_id">Finish</label><select id="finish_id" name="finish_id"><option value="">None</option>${o.finishes.map((m) => option(m, s.finish_id))}</select>` : raw('')}
${o.colors?.length ? html`<label for="powder_coat_color_id">Powder coat color (for a powder coat finish)</label><select id="powder_coat_color_id" name="powder_coat_color_id"><option value="">Choose with powder coat</option>${o.colors.map((m) => option(m, s.color_id))}</select>` : raw('')}
${o.finishes === undefined ? html`<p><small>Finishes and hole operations (taps, countersinks, hardware) are offered with the quote, once the check knows what fits each part.</small></p>` : raw('')}
<label for="quantity">Quantity</label>
<input id="quantity" name="quantity" type="number" min="1" max="100000" required value="${s.quantity ?? 1}">
${o.risksInFindings ? raw('') : riskBoxes(o.risks ?? [], s.accepted ?? [])}
<button type="submit">Get a quote</button>
</form>`;
}

export function designPage(o: Who & { design: Obj; parts: PartView[]; configure: Html | null; error?: string | null }): string {
  const d = o.design;
  const pending = d.status === 'queued' || d.status === 'processing';
  const body = pending
    ? html`<p role="status" id="design-status">Analyzing ${d.name}… this page refreshes by itself.</p><progress aria-label="Analysis in progress"></progress>`
    : d.status === 'failed'
      ? html`<p role="alert">The analysis failed: ${d.error?.message ?? 'unknown error'}</p><p><a href="/designs/new">Upload another file</a></p>`
      : html`${alert(o.error)}<p id="design-status">${d.parts.length} unique part${d.parts.length === 1 ? '' : 's'} in ${d.name}.</p>
${o.parts.map(partSection)}
<section id="configure-section"><h2>Configure and quote</h2>${o.configure ?? html`<p>No material or tube profile fits these parts.</p>`}</section>`;
  return layout(`Design ${d.name}`, body, {
    ...o,
    head: pending ? raw('<meta http-equiv="refresh" content="2">') : undefined,
    scripts: pending ? [] : [MODEL_VIEWER, `${SITE_ASSETS}viewer.js`],
  });
}

const severityText = (s: string): string => (s === 'blocking' || s === 'error' ? 'Blocks the order' : s === 'warning' ? 'Risk' : 'Note');

/** A part of the quoted item left out of the job: shown with its count, never priced. */
export interface LeftOutLine { name: string; quantity: number; why: string }

/**
 * The findings, one list numbered as the drawing's markers (each part's findings in report order):
 * severity and message, and for a risk the customer may accept a box of its own, which belongs to the
 * configure form below (the contract accepts a risk by its code, so boxes of one code go together).
 */
function findingsList(issues: Obj[], acceptable: readonly string[], accepted: readonly string[], partNames: Record<string, string>): Html {
  const byPart = new Map<string, Obj[]>();
  for (const i of issues) byPart.set(String(i.part_id), [...(byPart.get(String(i.part_id)) ?? []), i]);
  let n = 0;
  // each part's drawing numbers its own findings from 1, so each part gets its own list
  return html`<div id="findings-list">${[...byPart].map(([partId, list]) => html`${byPart.size > 1 ? html`<h3>${partNames[partId] ?? partId}</h3>` : raw('')}<ol class="findings">${list.map((i) => {
    const id = `finding-${++n}`;
    // a finding accepted through another code's value (press-in hardware near a bend: hole_too_close_to_bend) names it in details.accepted_as
    const risk = acceptable.includes(i.code) ? i.code : acceptable.includes(i.details?.accepted_as) ? String(i.details.accepted_as) : null;
    const box = risk
      ? html`<br><label><input type="checkbox" form="configure" name="accepted_risks" value="${risk}" aria-describedby="${id}"${accepted.includes(risk) || i.accepted ? raw(' checked') : raw('')}> I accept this risk</label>`
      : raw('');
    return html`<li><span id="${id}"><strong>${i.accepted ? 'Accepted' : severityText(i.severity)}:</strong> ${i.message}</span>${box}</li>`;
  })}</ol>`)}</div>`;
}

/** A material's nest as the quote page shows it (the use case's drawing of the nest the price came from). */
export interface NestView { material_id: string; sheet_length_mm: number; sheet_width_mm: number; sheets: number; utilization: number; sampled: boolean; sheet_count: number; pictures: string[]; files?: Array<{ dxf: string; svg: string }> }

const percent = (x: number): string => `${Math.round(x * 1000) / 10} %`;

const QUOTE_NEST_INTRO = 'The sheet material is priced from this nest of the flats on the stock sheet; the area charged is the rectangle each sheet\'s parts take, the rest a remnant the shop keeps.';
const ORDER_NEST_INTRO = 'The nest the sheet material was priced from, for the shop: each stock sheet as a DXF for cutting (the cut contours on layer CUT, part ids on PART_IDS, in millimetres) and as a picture.';

/** A sheet's files for the shop: its DXF and SVG links. */
const sheetLinks = (f: { dxf: string; svg: string }): Html => html`<a class="nest-dxf" href="${f.dxf}">DXF for cutting</a>, <a class="nest-svg" href="${f.svg}">SVG</a>`;

/** Per material: its utilisation, the sheet area charged and each sheet drawn with the flats placed (the undrawn ones' files listed). */
function nestSection(nests: readonly NestView[], stockNames: Record<string, string>, intro = QUOTE_NEST_INTRO): Html {
  if (!nests.length) return raw('');
  return html`<section id="nest"><h2>Sheet nest</h2>
<p>${intro}</p>
${nests.map((n) => {
    const name = stockNames[n.material_id] ?? n.material_id;
    return html`<article class="nest" data-material-id="${n.material_id}"><h3>${name}</h3>
<p><strong class="nest-utilization">Utilisation ${percent(n.utilization)}</strong>: ${n.sheets} of a ${mm(n.sheet_length_mm)} x ${mm(n.sheet_width_mm)} sheet's area charged${n.sampled ? ' (nested as a sample of the pieces in proportion, scaled)' : ''}.</p>
${n.pictures.map((svg, i) => html`<figure>${raw(svg.replace('<svg ', html`<svg role="img" aria-label="${`Sheet ${i + 1} of ${n.sheet_count} of ${name}, with the flats placed`}" `.html))}<figcaption>Sheet ${i + 1} of ${n.sheet_count}${n.files?.[i] ? html`: ${sheetLinks(n.files[i])}` : raw('')}</figcaption></figure>`)}
${n.sheet_count > n.pictures.length ? html`<p>${n.sheet_count - n.pictures.length} more sheets not drawn.</p>` : raw('')}
${(n.files?.length ?? 0) > n.pictures.length ? html`<ul>${n.files!.slice(n.pictures.length).map((f, j) => html`<li>Sheet ${n.pictures.length + j + 1} of ${n.sheet_count}: ${sheetLinks(f)}</li>`)}</ul>` : raw('')}</article>`;
  })}</section>`;
}


const mmText = (x: unknown, unit = 'mm'): string => (typeof x === 'number' ? `${Number(x.toFixed(1))} ${unit}` : '-');

/**
 * Each bent part's press-brake plan (the DFM report's bend_plan, docs/press-brake.md): the bend table
 * in the order the brake bends it, or why no sequence was found. `stepImages`: part id -> the URL of
 * each step's picture (the part on the die), in step order ('' for a step without one), shown beside the table.
 */
function bendPlans(parts: Obj[], partNames: Record<string, string>, stepImages: Record<string, string[]>): Html {
  const planned = parts.filter((p) => p.bend_plan);
  if (!planned.length) return raw('');
  return html`<section id="bend-plans"><h2>Press-brake bend sequence</h2>
${planned.map((p) => {
    const plan: Obj = p.bend_plan;
    const name = partNames[p.part_id] ?? p.part_id;
    if (plan.status !== 'found') return html`<h3>${name}</h3><p class="bend-plan-none"><strong>No bend sequence${plan.status === 'stopped' ? ' (the search stopped)' : ''}:</strong> ${plan.message ?? 'not checked'}</p>`;
    const images = stepImages[p.part_id] ?? [];
    return html`<h3>${name}</h3><table class="bend-plan" data-part-id="${p.part_id}"><caption>${name}: bends in the order the brake makes them (brake ${plan.brake_id})</caption>
<thead><tr><th scope="col">Step</th><th scope="col">Bend</th><th scope="col">Angle</th><th scope="col">Direction</th><th scope="col">Face up</th><th scope="col">Flange behind the punch</th><th scope="col">Punch</th><th scope="col">Die</th><th scope="col">Force</th><th scope="col">Back gauge</th></tr></thead><tbody>
${(plan.sequence as Obj[]).map((s) => html`<tr><td>${s.step}</td><td>${s.bend_id}</td><td>${Number(Number(s.angle_degrees).toFixed(1))}°</td><td>${s.direction}</td><td>${s.side_up}</td><td>${s.behind_punch}</td><td>${s.punch_id} (${mmText(s.punch_length_mm)})</td><td>${s.die_id}</td><td>${mmText(s.force_kn, 'kN')}</td><td>${mmText(s.back_gauge_mm)}</td></tr>`)}
</tbody></table>
${images.length ? html`<div class="bend-steps">${images.map((url, i) => url === '' ? raw('') : html`<figure class="bend-step"><img src="${url}" alt="${name}, step ${i + 1}: the part on the die under the punch" width="240"><figcaption>Step ${i + 1}</figcaption></figure>`)}</div>` : raw('')}`;
  })}</section>`;
}

export function quotePage(o: Who & { acceptable?: readonly string[]; accepted?: readonly string[]; quote: Obj; designName: string; partNames: Record<string, string>; stockNames: Record<string, string>; configure: Html; issueImages: Array<{ partId: string; url: string }>; leftOut?: LeftOutLine[]; nests?: readonly NestView[]; bendStepImages?: Record<string, string[]> }): string {
  const q = o.quote;
  const item: Obj = q.items?.[0] ?? {};
  const issues: Obj[] = (item.dfm?.parts ?? []).flatMap((p: Obj) => p.issues ?? []);
  const lines: Obj[] = item.line_items ?? [];
  const options: Obj[] = item.quantity_options ?? [];
  const ready = q.status === 'ready';
  return layout(`Quote for ${o.designName}`, html`
<p id="quote-status" role="status">${ready ? 'This quote is ready to order.' : q.status === 'blocked' ? 'This configuration cannot be ordered yet: see the findings below.' : `Quote status: ${q.status}`}</p>
${issues.length ? html`<section id="findings"><h2>Manufacturability findings</h2>
${o.issueImages.map((im) => html`<figure class="flat"><img src="${im.url}" alt="${o.partNames[im.partId] ?? im.partId} with the findings marked, numbered as in the list below"></figure>`)}
${findingsList(issues, o.acceptable ?? [], o.accepted ?? [], o.partNames)}</section>` : raw('')}
${bendPlans(item.dfm?.parts ?? [], o.partNames, o.bendStepImages ?? {})}
<section id="prices"><h2>Prices</h2>
<table><thead><tr><th scope="col">Part</th><th scope="col">Material</th><th scope="col">Finish</th><th scope="col">Quantity</th><th scope="col">Unit price</th><th scope="col">Amount</th></tr></thead><tbody>
${lines.map((l) => html`<tr><td>${o.partNames[l.part_id] ?? l.part_id}</td><td>${o.stockNames[l.material_id ?? l.tube_profile_id ?? ''] ?? l.material_id ?? l.tube_profile_id ?? ''}</td><td>${finishText(l, o.stockNames)}</td><td>${l.quantity}</td><td>${money(l.unit_amount_cents)}</td><td>${money(l.amount_cents)}</td></tr>`)}
${(o.leftOut ?? []).map((l) => html`<tr class="left-out"><td>${l.name}</td><td colspan="2">Left out: ${l.why}</td><td>${l.quantity}</td><td>-</td><td>not made here</td></tr>`)}
</tbody><tfoot><tr><th scope="row" colspan="5">Subtotal (before shipping and tax)</th><td id="quote-subtotal">${ready ? money(q.amount_subtotal_cents) : 'no total until the quote is ready'}</td></tr></tfoot></table>
${options.length ? html`<h3>Other quantities</h3><table id="quantity-options"><thead><tr><th scope="col">Quantity</th><th scope="col">Unit price</th><th scope="col">Amount</th></tr></thead><tbody>
${options.map((x) => html`<tr><td>${x.quantity}</td><td>${money(x.unit_amount_cents)}</td><td>${money(x.amount_cents)}</td></tr>`)}</tbody></table>` : raw('')}
</section>
${nestSection(o.nests ?? [], o.stockNames)}
${ready ? html`<form method="post" action="/quotes/${encodeURIComponent(q.id)}/cart">${csrfField(o.csrf)}<button type="submit" id="add-to-cart">Add to cart</button></form>` : raw('')}
<section><h2>Change the configuration</h2>${o.configure}</section>
<p><a href="/designs/${encodeURIComponent(q.design_id ?? item.design_id ?? '')}">Back to the design</a></p>`, o);
}

const STATE_CODES = 'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY'.split(' ');

/** A line's finish and powder-coat colour by name ("Powder coat, RAL 9005 Jet Black"); "None" without one. */
function finishText(l: Obj, names: Record<string, string>): string {
  const finish = l.finish_id ? names[l.finish_id] ?? l.finish_id : null;
  const colour = l.powder_coat_color_id ? names[l.powder_coat_color_id] ?? l.powder_coat_color_id : null;
  return [finish, colour].filter(Boolean).join(', ') || 'None';
}

/** What is pressed into or cut into a part's holes, from its item's configuration: "2 nuts, 4 taps"; "None" without any. */
function hardwareText(quote: Obj | undefined, partId: string): string {
  for (const item of (quote?.items ?? []) as Obj[]) {
    const entry = ((item.dfm?.configuration?.parts ?? []) as Obj[]).find((p) => p.part_id === partId);
    if (!entry) continue;
    const counts = ['taps', 'studs', 'nuts', 'standoffs', 'countersinks']
      .map((k) => [k, Array.isArray(entry[k]) ? entry[k].length : 0] as const).filter(([, n]) => n > 0);
    if (counts.length) return counts.map(([k, n]) => `${n} ${n === 1 ? k.replace(/s$/, '') : k}`).join(', ');
  }
  return 'None';
}

export function checkoutPage(o: {
  who: Who | null; cart: Obj; token: string; signInUrl: string; account: Obj | null; partNames: Record<string, string>; stockNames: Record<string, string>; error?: string | null; notice?: string | null;
}): string {
  const c = o.cart;
  const t = c.totals ?? {};
  const s: Obj = c.ship_to ?? {};
  const base = `/checkout/${encodeURIComponent(o.token)}`;
  const csrf = o.who?.csrf ?? '';
  const options: Obj[] = c.quote?.fulfillment?.shipping_options ?? [];
  const lines: Obj[] = (c.quote?.items ?? []).flatMap((i: Obj) => i.line_items ?? []);
  const open = c.status === 'open' && !c.checked_out;
  const field = (name: string, label: string, auto: string, extra = ' required') =>
    html`<label for="ship-${name}">${label}</label><input id="ship-${name}" name="${name}" autocomplete="${auto}" value="${s[name] ?? ''}"${raw(extra)}>`;
  const items = html`<section id="items"><h2>Items</h2><table><thead><tr><th scope="col">Part</th><th scope="col">Material</th><th scope="col">Finish</th><th scope="col">Hardware</th><th scope="col">Quantity</th><th scope="col">Unit price</th><th scope="col">Amount</th></tr></thead><tbody>
${lines.map((l) => html`<tr><td>${o.partNames[l.part_id] ?? l.part_id}</td><td>${o.stockNames[l.material_id ?? l.tube_profile_id ?? ''] ?? l.material_id ?? l.tube_profile_id ?? ''}</td><td>${finishText(l, o.stockNames)}</td><td>${hardwareText(c.quote, l.part_id)}</td><td>${l.quantity}</td><td>${money(l.unit_amount_cents)}</td><td>${money(l.amount_cents)}</td></tr>`)}
</tbody></table></section>`;
  const totals = html`<section id="totals"><h2>Totals</h2><table><tbody>
<tr><th scope="row">Parts</th><td>${money(t.amount_subtotal_cents)}</td></tr>
<tr><th scope="row">Shipping</th><td>${t.amount_shipping_cents == null ? 'choose an option' : money(t.amount_shipping_cents)}</td></tr>
${t.amount_production_surcharge_cents ? html`<tr><th scope="row">Faster production</th><td>${money(t.amount_production_surcharge_cents)}</td></tr>` : raw('')}
<tr><th scope="row">Sales tax</th><td>${t.tax_status === 'calculated' ? money(t.amount_tax_cents) : 'needs the address'}</td></tr>
<tr><th scope="row">Total</th><td><strong id="cart-total">${money(t.amount_total_cents)}</strong></td></tr>
</tbody></table></section>`;
  if (!o.who) {
    return layout('Checkout', html`${items}${totals}<p><a href="${o.signInUrl}" role="button">Sign in to check out</a></p>`);
  }
  if (!open) {
    return layout('Checkout', html`${items}${totals}<p role="status">This cart is ${c.checked_out ? 'paid' : c.status}.${c.order_id ? html` <a href="/orders/${encodeURIComponent(c.order_id)}">See the order</a>` : raw('')}</p>`, o.who);
  }
  const card = o.account?.card;
  const ready = c.ship_to && c.shipping_option_id && t.amount_total_cents != null;
  return layout('Checkout', html`${alert(o.error)}${o.notice ? html`<p role="status">${o.notice}</p>` : raw('')}${items}
<section id="ship-to"><h2>Ship to (United States)</h2>
<form method="post" action="${base}/ship-to">${csrfField(csrf)}
${field('name', 'Full name', 'name')}${field('company', 'Company (optional)', 'organization', '')}
${field('street1', 'Street address', 'address-line1')}
${field('street2', 'Apartment, suite (optional)', 'address-line2', '')}
<div class="grid">
<div>${field('city', 'City', 'address-level2')}</div>
<div><label for="ship-state">State</label><select id="ship-state" name="state" autocomplete="address-level1" required><option value="">Choose…</option>${STATE_CODES.map((code) => html`<option${code === s.state ? raw(' selected') : raw('')}>${code}</option>`)}</select></div>
<div>${field('postal_code', 'ZIP code', 'postal-code', ' required inputmode="numeric" pattern="[0-9]{5}(-[0-9]{4})?"')}</div>
</div>
<button type="submit" class="secondary">Save address</button>
</form></section>
${c.ship_to ? html`<section id="shipping"><h2>Shipping</h2>
<form method="post" action="${base}/shipping">${csrfField(csrf)}<fieldset><legend>Choose how it ships</legend>
${options.map((x) => html`<label><input type="radio" name="shipping_option_id" value="${x.id}" required${x.id === c.shipping_option_id ? raw(' checked') : raw('')}>
${String(x.carrier).toUpperCase()} ${String(x.service).replace(/_/g, ' ')} (${x.production_speed} production): ${money(x.amount_cents + (x.production_surcharge_cents ?? 0))}, ships ${x.planned_ship_date}, arrives ${x.estimated_delivery_date}${x.delivery_date_guaranteed ? ' (guaranteed)' : ''}</label>`)}
</fieldset><button type="submit" class="secondary">Use this shipping</button></form></section>` : raw('')}
${totals}
<section id="payment"><h2>Payment</h2>
${card ? html`<p>Saved card: <strong id="saved-card">${String(card.brand).toUpperCase()} ending ${card.last4}</strong>, expires ${card.exp_month}/${card.exp_year}.</p>
${ready ? html`<form method="post" action="${base}/pay">${csrfField(csrf)}<button type="submit" id="pay">Pay ${money(t.amount_total_cents)}</button></form>` : html`<p>Enter the address and choose shipping to pay.</p>`}`
    : html`<p>No card is saved on your account.</p>${o.account?.payment_method_setup_url ? html`<form method="post" action="${base}/card">${csrfField(csrf)}<button type="submit" id="add-card">Add a card</button> on the payment processor's page; saving it brings you back here.</form>` : raw('')}`}
</section>`, o.who);
}

const STATUS_TEXT: Record<string, string> = {
  received: 'Received', in_production: 'In production', ready_for_pickup: 'Ready for pickup', shipped: 'Shipped',
  delivered: 'Delivered', cancelled: 'Cancelled', refunded: 'Refunded',
};
const when = (iso: string | null | undefined): Html => (iso ? html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>` : raw('—'));

export function ordersPage(o: Who & { orders: Obj[] }): string {
  return layout('Orders', o.orders.length
    ? html`<table><thead><tr><th scope="col">Order</th><th scope="col">Placed</th><th scope="col">Status</th><th scope="col">Total</th></tr></thead><tbody>
${o.orders.map((x) => html`<tr><td><a href="/orders/${encodeURIComponent(x.id)}">${x.id}</a></td><td>${when(x.created_at)}</td><td>${STATUS_TEXT[x.status] ?? x.status}</td><td>${money(x.amount_total_cents)}</td></tr>`)}
</tbody></table>`
    : html`<p>No orders yet. <a href="/designs/new">Upload a design</a> to get started.</p>`, o);
}

export function orderPage(o: Who & { order: Obj; catalogNames: Record<string, string>; nests?: readonly NestView[] }): string {
  const x = o.order;
  const tr: Obj | null = x.tracking;
  const lines: Obj[] = x.line_items ?? [];
  return layout(`Order ${x.id}`, html`<p id="order-status" role="status">Status: <strong>${STATUS_TEXT[x.status] ?? x.status}</strong></p>
<section><h2>Timeline</h2><ol class="timeline">${(x.events ?? []).map((e: Obj) => html`<li>${STATUS_TEXT[String(e.type).replace(/^order\./, '')] ?? String(e.type).replace(/_/g, ' ')} · ${when(e.at)}${e.reason ? html` · ${e.reason}` : raw('')}</li>`)}</ol></section>
<section><h2>Tracking</h2>${tr ? html`<p>${String(tr.carrier).toUpperCase()} ${tr.number}${tr.url ? html` · <a href="${tr.url}" rel="noopener noreferrer">Track the package</a>` : raw('')}</p>` : html`<p>Tracking appears here once it ships.</p>`}</section>
<section id="order-items"><h2>Items</h2><table><thead><tr><th scope="col">Item</th><th scope="col">Material</th><th scope="col">Finish</th><th scope="col">Hardware</th><th scope="col">Quantity</th><th scope="col">Unit price</th><th scope="col">Amount</th></tr></thead><tbody>
${lines.map((l) => {
    const part = l.type === 'part';
    const stock = l.material_id ?? l.tube_profile_id;
    return html`<tr><td>${l.name}</td><td>${stock ? o.catalogNames[stock] ?? stock : ''}</td><td>${part ? finishText(l, o.catalogNames) : ''}</td><td>${part ? (l.hole_operation_count ? `${l.hole_operation_count} hole${l.hole_operation_count === 1 ? '' : 's'} with hardware, taps or countersinks` : 'None') : ''}</td><td>${l.quantity}</td><td>${money(l.unit_amount_cents)}</td><td>${money(l.amount_cents)}</td></tr>`;
  })}
</tbody></table><p>Total paid: <strong>${money(x.amount_total_cents)}</strong></p></section>
${nestSection(o.nests ?? [], o.catalogNames, ORDER_NEST_INTRO)}
<p><a href="/orders">All orders</a></p>`, o);
}

