// The MCP tools (docs/agents.md "MCP: agents quote parts"), each a use case (or two) with a strict, described input schema; the
// same list serves the hosted endpoint and `kerf mcp` (stdio), which differ only in how a file
// arrives (an HTTP PUT to upload_url, or a local path).
import { readFile, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import {
  bendStepPictures, type BendStepPicture, createDfmReport, createQuote, createReviewLink, getDesign, getDfmNest, getDfmReport, getPendingUpload, getQuote, getReviewLink, listCatalog, partStock, searchCatalog,
  MAX_PREPARED_UPLOAD_BYTES, prepareUpload, previewDesign, previewDfm, receiveUpload, runOnce, schemas, UseCaseError, waitForDesign, waitForQuote,
  type PreparedUpload, type PreviewImage, type Scope,
} from '@kerf/usecases';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { json, toolResult } from './results.ts';
import { checkoutTool } from './checkout.ts';
import { orderProductionFilesTool } from './order-files.ts';
import { withWebLinksNote, type ToolDef, type ToolEnv } from './tool-def.ts';

export type { ToolDef, ToolEnv } from './tool-def.ts';

const described = <T extends TSchema>(schema: T, description: string): T => ({ ...schema, description });
const strict = { additionalProperties: false } as const;

const OperationKey = Type.String({
  minLength: 1, maxLength: 200, pattern: '^[\\x21-\\x7e]+$',
  description: 'Your id for this write, e.g. a UUID (printable ASCII, no spaces). Retrying with the same key and identical input returns the first result without doing the work twice; new input needs a new key.',
});
const DesignId = Type.String({ minLength: 1, maxLength: 100, description: 'A design id (des_...) from prepare_upload.' });
const WaitSeconds = Type.Integer({ minimum: 0, maximum: 25, default: 0, description: 'Wait up to this many seconds for processing to finish before answering (0: answer at once).' });
const Configuration = described(schemas.Configuration, 'Selections per unique part: material_id (sheet) or tube_profile_id (tube), finish_id, powder_coat_color_id, hole operations (taps, studs, nuts, standoffs, countersinks by hole_id), left_out (true: a part the customer supplies, not made or priced; false: make a part taken for bought-in hardware, which is left out by default), welds, and accepted_risks (only with the customer\'s decision). Use ids from search_catalog and hole ids from inspect_design; list every unique part of an assembly.');

/** A write: validated, then run once per operation_key (the key is not part of the compared input). */
function write<T>(name: string, scope: Scope, env: ToolEnv, args: Record<string, unknown>, run: (input: Record<string, unknown>) => Promise<T>): Promise<T> {
  const { operation_key: key, ...input } = args;
  return runOnce(env.ctx, env.caller, { name, key: String(key), input, scope }, () => run(input));
}

const cents = (c: unknown): string => (typeof c === 'number' ? `$${(c / 100).toFixed(2)}` : 'n/a');
const imageContent = (img: PreviewImage): CallToolResult['content'] => [
  { type: 'text', text: img.label },
  img.content_type === 'image/svg+xml'
    // SVG as text: image content is for raster formats most clients can show
    ? { type: 'resource', resource: { uri: img.url ?? `kerf:dfm-image/${img.part_id ?? 'design'}`, mimeType: img.content_type, text: img.bytes.toString('utf8') } }
    : { type: 'image', data: img.bytes.toString('base64'), mimeType: img.content_type },
];

// ---- designs ----------------------------------------------------------------------------------

type DesignView = Awaited<ReturnType<typeof getDesign>>;

function designText(d: DesignView): string {
  if (d.status === 'queued' || d.status === 'processing') return `Design ${d.id} (${d.name}) is ${d.status}. Call inspect_design again with design_id ${d.id} and wait_seconds 25 until it is ready; the id stays the same.`;
  if (d.status === 'failed') return `Design ${d.id} (${d.name}) failed analysis: ${d.error?.code}: ${d.error?.message}. Upload a corrected STEP file with prepare_upload.`;
  const lines = d.parts.map((p) => {
    const dims = p.formed_dimensions ? `${p.formed_dimensions.length_mm.toFixed(1)} x ${p.formed_dimensions.width_mm.toFixed(1)} x ${p.formed_dimensions.height_mm.toFixed(1)} mm` : '';
    // bought-in hardware is left out of the job by default: say so rather than "not manufacturable"
    const made = p.bought_in ? ` BOUGHT-IN ${[p.bought_in.size, String(p.bought_in.kind).replace(/_/g, ' ')].filter(Boolean).join(' ')}: left out of the job (not made, not priced) unless its configuration entry sets left_out: false`
      : p.manufacturable ? '' : ` NOT manufacturable (${p.unsupported_reason})`;
    const seated = (p.seated_hardware ?? []).map((h: { hole_id: number; size: string; kind: string }) => `hole ${h.hole_id}: ${h.size} ${h.kind}`);
    return `- part ${p.id} "${p.name}": ${p.suggested_process}, x${p.instance_count}, ${p.detected_thickness_mm ?? '?'} mm thick, ${p.bend_count} bends, ${p.hole_count} holes, ${dims}${made}${seated.length ? `; press-in hardware installed by default (${seated.join(', ')})` : ''}`;
  });
  return [
    `Design ${d.id} (${d.name}) is ready: ${d.parts.length} unique part(s), suggested process ${d.suggested_process}.`,
    ...lines,
    'Next: search_catalog for material ids (thickness must match each part), then quote_designs with a configuration listing every part. preview_design shows the parts; a person can look at it at review_url.',
  ].join('\n');
}

async function inspectDesign(env: ToolEnv, args: Record<string, unknown>): Promise<CallToolResult> {
  const designId = String(args.design_id);
  try {
    const wait = Number(args.wait_seconds ?? 0);
    const d = wait > 0 ? await waitForDesign(env.ctx, env.caller, { design_id: designId, wait_seconds: wait }) : await getDesign(env.ctx, env.caller, { design_id: designId });
    return toolResult(designText(d), d as unknown as Record<string, unknown>);
  } catch (err) {
    if (!(err instanceof UseCaseError) || err.kind !== 'not_found') throw err;
    const pending = await getPendingUpload(env.ctx, env.caller, { design_id: designId });
    if (!pending) throw err;
    const text = pending.status === 'expired'
      ? `Design ${designId} never received its file and its upload link expired at ${pending.expires_at}. Call prepare_upload again (new operation_key) and PUT the file to the new upload_url.`
      : `Design ${designId} is waiting for its file (${pending.filename}): PUT the bytes to the upload_url prepare_upload returned, before ${pending.expires_at}; then call inspect_design again.`;
    return toolResult(text, { id: designId, object: 'design', status: pending.status, name: pending.filename, upload_expires_at: pending.expires_at });
  }
}

/** What the PUT sends: the raw bytes of the file. */
const UPLOAD_HEADERS = { 'Content-Type': 'application/octet-stream' };

function uploadAnswer(env: ToolEnv, up: PreparedUpload): CallToolResult {
  if (env.uploads.mode !== 'hosted') throw new Error('hosted uploads only');
  const url = env.uploads.uploadUrl(up.upload_token);
  const out = {
    design_id: up.design_id, upload_url: url, upload_method: 'PUT', upload_headers: UPLOAD_HEADERS,
    browser_upload_url: env.uploads.browserUploadUrl(up.upload_token), max_bytes: up.max_bytes, expires_at: up.expires_at,
  };
  const text = [
    `Design id ${up.design_id} is reserved. Send the file's bytes by HTTP PUT to upload_url with upload_headers before ${up.expires_at} (15 minutes; at most 50 MiB), for example:`,
    `curl -X PUT --data-binary @FILE.step -H 'Content-Type: application/octet-stream' '${url}'`,
    `Or ask a person to open browser_upload_url (${out.browser_upload_url}) and choose the file. Never pass file contents as tool arguments.`,
    `Then call inspect_design with design_id ${up.design_id} (wait_seconds 25) until it is ready.`,
  ].join('\n');
  return toolResult(text, out);
}

/** `kerf mcp`: the file is on this machine; read it and make the design at once. */
async function uploadLocalFile(env: ToolEnv, req: { path: string; filename?: string; size_bytes?: number; sha256?: string }): Promise<Record<string, unknown>> {
  const path = resolve(req.path);
  const info = await stat(path).catch(() => null);
  if (!info || !info.isFile()) throw new UseCaseError('invalid', 'invalid_request_error', 'parameter_invalid', `No readable file at '${path}'; give the path of a STEP file on this machine.`, { param: 'request.path' });
  if (info.size > MAX_PREPARED_UPLOAD_BYTES) throw new UseCaseError('too_large', 'invalid_request_error', 'file_too_large', `'${path}' is ${info.size} bytes; uploads take at most ${MAX_PREPARED_UPLOAD_BYTES} bytes (50 MiB).`, { param: 'request.path' });
  const prepared = await prepareUpload(env.ctx, env.caller, { filename: req.filename ?? basename(path), ...(req.size_bytes ? { size_bytes: req.size_bytes } : {}), ...(req.sha256 ? { sha256: req.sha256 } : {}) });
  const design = await receiveUpload(env.ctx, { token: prepared.upload_token, bytes: await readFile(path) });
  return { design_id: design.id, upload_url: null, upload_headers: {}, browser_upload_url: null, expires_at: prepared.expires_at, design };
}

const HostedUploadInput = Type.Object({
  request: described(schemas.PrepareUploadRequest, 'The file to upload: its STEP base name, and optionally its size and SHA-256 so that the upload is checked.'),
  operation_key: OperationKey,
}, strict);

const LocalUploadInput = Type.Object({
  request: Type.Object({
    path: Type.String({ minLength: 1, maxLength: 4096, description: 'Path of the STEP file on this machine (absolute, or relative to the directory kerf mcp runs in).' }),
    filename: Type.Optional(described(schemas.PrepareUploadRequest.properties.filename, 'Name to give the design; default the base name of path.')),
    size_bytes: Type.Optional(schemas.PrepareUploadRequest.properties.size_bytes),
    sha256: Type.Optional(schemas.PrepareUploadRequest.properties.sha256),
  }, { ...strict, description: 'The local STEP file to analyze.' }),
  operation_key: OperationKey,
}, strict);

const prepareUploadTool = (mode: 'hosted' | 'local'): ToolDef => ({
  name: 'prepare_upload',
  title: 'Prepare a STEP upload',
  description: mode === 'hosted'
    ? 'Start here with a STEP/STP file. Reserves a design id and returns upload_url, upload_headers and browser_upload_url: send the file by HTTP PUT to upload_url (within 15 minutes, up to 50 MiB), never as tool arguments. Then inspect_design until the design is ready.'
    : 'Start here with a STEP/STP file on this machine: give its path; the file is analyzed into a design (returns design_id). Then inspect_design until the design is ready.',
  input: mode === 'hosted' ? HostedUploadInput : LocalUploadInput,
  scopes: ['designs'],
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(env, args) {
    if (env.uploads.mode === 'hosted') {
      const up = (await write('prepare_upload', 'designs', env, args, (input) => prepareUpload(env.ctx, env.caller, input.request as Static<typeof schemas.PrepareUploadRequest>))) as PreparedUpload;
      return uploadAnswer(env, up);
    }
    const out = (await write('prepare_upload', 'designs', env, args, (input) => uploadLocalFile(env, input.request as { path: string }))) as Record<string, unknown>;
    return toolResult(`The file is uploaded as design ${String(out.design_id)}. Call inspect_design with design_id ${String(out.design_id)} (wait_seconds 25) until it is ready.`, out);
  },
});

const inspectDesignTool: ToolDef = {
  name: 'inspect_design',
  title: 'Inspect a design',
  description: 'The analysis of an uploaded design: status (awaiting_upload, queued, processing, ready, failed), unique parts with process, thickness, bends, holes (hole ids for hardware) and instance counts. A design that is still processing keeps its id: call again (wait_seconds up to 25) to resume.',
  input: Type.Object({ design_id: DesignId, wait_seconds: Type.Optional(WaitSeconds) }, strict),
  scopes: ['designs'],
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: inspectDesign,
};

const previewDesignTool: ToolDef = {
  name: 'preview_design',
  title: 'Preview a design',
  description: 'Labelled pictures (PNG) of a ready design or one of its parts: iso, top, bottom, front, back, left, right views and flat patterns.',
  input: Type.Object({
    design_id: DesignId,
    part_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Show this part (prt_... from inspect_design) instead of the whole design.' })),
    views: Type.Optional(described(schemas.PreviewRequest.properties.views, 'Views to render (default iso, top, front and the flat patterns).')),
    width: Type.Optional(described(schemas.PreviewRequest.properties.width, 'Image width in pixels (64-1600, default 512).')),
  }, strict),
  scopes: ['designs'],
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(env, args) {
    const p = await previewDesign(env.ctx, env.caller, args as Static<typeof schemas.PreviewRequest>);
    const skipped = p.skipped.map((s) => `${s.view}${s.part_id ? ` of ${s.part_id}` : ''}: ${s.reason}`);
    const text = `${p.images.length} view(s) of design ${p.design_id}.${skipped.length ? ` Not shown: ${skipped.join('; ')}` : ''}`;
    const images = p.images.map((i) => ({ label: i.label, view: i.view, part_id: i.part_id, mime_type: i.content_type }));
    return toolResult(text, { design_id: p.design_id, images, skipped: p.skipped }, p.images.flatMap(imageContent));
  },
};

// ---- catalogs ---------------------------------------------------------------------------------

const searchCatalogTool: ToolDef = {
  name: 'search_catalog',
  title: 'Search the catalogs',
  description: 'Current catalog entries and their ids: sheet materials (with thickness_mm), tube profiles, finishes, powder-coat colors and hardware (taps, studs, nuts, standoffs). Configurations reference these ids, never names. With design_id and part_id (materials or tube_profiles): the stock that part can be made from, the closest first (take the first unless the person wants another material). With query, the entries holding every word (e.g. "aluminum 3 mm", "M4"); a materials query naming a thickness ("mild steel 2 mm", "0.075 in", "14 ga") lists that exact thickness first, then the nearest. Without either, the whole catalog page by page (cursor while has_more).',
  input: Type.Object({
    catalog: described(schemas.ListCatalogInput.properties.catalog, 'Which catalog: materials, tube_profiles, finishes, powder_coat_colors, taps, studs, nuts or standoffs.'),
    query: Type.Optional(described(schemas.CatalogSearchInput.properties.query, 'Words every returned entry holds (case-insensitive), e.g. "stainless 1.5 mm"; figures match with or without "mm".')),
    process: Type.Optional(described(schemas.ListCatalogInput.properties.process, 'Finishes only: those available for sheet_metal or tube_laser.')),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, description: 'Entries per answer, 1-500 (default 100 for a page, 50 for a query).' })),
    cursor: Type.Optional(described(schemas.ListCatalogInput.properties.cursor, 'next_cursor of the previous page (listing without query only).')),
    design_id: Type.Optional(described(DesignId, 'With part_id: the ready design the part belongs to.')),
    part_id: Type.Optional(described(schemas.PartStockInput.properties.part_id, 'With design_id: the unique part (inspect_design lists them) to find stock for; catalog must be materials for a sheet part, tube_profiles for a tube.')),
  }, strict),
  scopes: [],
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(env, args) {
    const { query, cursor, design_id: designId, part_id: partId, ...rest } = args as { query?: string; cursor?: string; design_id?: string; part_id?: string; catalog: string };
    if (designId !== undefined || partId !== undefined) return partStockResult(env, rest.catalog, designId, partId, query ?? cursor);
    if (query !== undefined && cursor !== undefined) {
      throw new UseCaseError('invalid', 'invalid_request_error', 'parameter_invalid', 'cursor pages a listing without query; a query answers all its matches at once (refine it, or raise limit).', { param: 'cursor' });
    }
    const page = query !== undefined
      ? await searchCatalog(env.ctx, env.caller, { ...rest, query } as Static<typeof schemas.CatalogSearchInput>)
      : await listCatalog(env.ctx, env.caller, { ...rest, ...(cursor ? { cursor } : {}) } as Static<typeof schemas.ListCatalogInput>);
    const lines = page.data.map((e) => `- ${e.id}: ${String(e.name ?? e.display_name ?? e.display_thickness ?? e.size ?? '')} ${String(e.material ?? '')} ${e.thickness_mm !== undefined ? `${String(e.thickness_mm)} mm` : ''}`.trimEnd());
    const more = !page.has_more ? '' : query !== undefined ? '\nMore entries match: refine the query or raise limit.' : `\nMore entries: call again with cursor ${page.next_cursor}.`;
    return toolResult(`${page.data.length} ${rest.catalog} entries${query !== undefined ? ` matching "${query}"` : ''}:\n${lines.join('\n')}${more}`, page as unknown as Record<string, unknown>);
  },
};

/** search_catalog for one part: the materials or tube profiles it fits, the closest first. */
async function partStockResult(env: ToolEnv, catalog: string, designId: string | undefined, partId: string | undefined, other: string | undefined): Promise<CallToolResult> {
  const bad = (param: string, message: string): UseCaseError => new UseCaseError('invalid', 'invalid_request_error', 'parameter_invalid', message, { param });
  if (designId === undefined || partId === undefined) throw bad(designId === undefined ? 'design_id' : 'part_id', 'Stock for a part needs both design_id and part_id.');
  if (other !== undefined) throw bad('query', 'Stock for a part is found by design_id and part_id alone; leave out query and cursor.');
  const found = await partStock(env.ctx, env.caller, { design_id: designId, part_id: partId });
  if (catalog !== found.catalog) throw bad('catalog', `Part ${partId} takes ${found.field}: ask the ${found.catalog} catalog for it.`);
  const lines = found.data.map((e) => `- ${e.id}: ${String(e.name ?? e.display_name ?? e.id)}`);
  const text = found.data.length
    ? `${found.data.length} ${found.catalog} entries fit part ${partId}, the closest first (use one as its ${found.field}):\n${lines.join('\n')}`
    : `No available ${found.catalog} entry fits part ${partId} (its thickness or section is not stocked); search_catalog with a query shows the nearest.`;
  return toolResult(text, found as unknown as Record<string, unknown>);
}

// ---- DFM and quotes ---------------------------------------------------------------------------

interface Issue { code: string; message: string; severity: string; part_id: string | null }
interface Requirement { code: string; message: string; part_id: string | null; field: string | null }
interface BendStepLike {
  step: number; bend_id: number; angle_degrees: number; direction: string; side_up: string; behind_punch: string; punch_id: string; punch_length_mm: number; die_id: string;
  back_gauge_mm: number | null; force_kn: number | null; image_url?: string | null;
}
interface DfmLike { id: string; status: string; design_id: string; review_url: string | null; requirements: Requirement[]; parts: Array<{ part_id: string; status: string; issues: Issue[]; bend_plan?: { status: string; message: string | null; sequence: BendStepLike[] } | null }> }

function findings(dfm: DfmLike): string[] {
  const out = dfm.requirements.map((r) => `- required: ${r.message}${r.field ? ` (${r.field})` : ''}`);
  for (const p of dfm.parts) for (const i of p.issues) out.push(`- ${i.severity} on ${p.part_id}: ${i.code}: ${i.message}`);
  return out;
}

/** Each bent part's press-brake sequence (the report's bend_plan), one line per part. */
function bendSequences(dfm: DfmLike): string[] {
  return dfm.parts.filter((p) => p.bend_plan?.status === 'found').map((p) =>
    `- bend sequence of ${p.part_id}: ${p.bend_plan!.sequence.map((s) => `bend ${s.bend_id} (${s.punch_id} on ${s.die_id}${s.side_up === 'bottom' ? ', turned over' : ''})`).join(', then ')}`);
}

const mm = (v: number | null): string => (v === null ? 'n/a' : `${v} mm`);

/** The bend table of each bent part (docs/press-brake.md "The bend table"), a line per step with its picture's URL; or why there is none. */
function bendTables(dfm: DfmLike): string[] {
  const out: string[] = [];
  for (const p of dfm.parts) {
    const plan = p.bend_plan;
    if (!plan) continue;
    if (plan.status !== 'found') { out.push(`- no bend sequence for ${p.part_id} (${plan.status})${plan.message ? `: ${plan.message}` : ''}`); continue; }
    out.push(`Bend table of ${p.part_id} (step: bend, angle and direction, face up, side of the bend line behind the punch, punch and set-up length, die, force, back gauge, picture):`);
    for (const s of plan.sequence) {
      out.push(`  ${s.step}: bend ${s.bend_id}, ${s.angle_degrees}° ${s.direction}, ${s.side_up} up, ${s.behind_punch} behind the punch, ${s.punch_id} (${mm(s.punch_length_mm)}) on ${s.die_id}, ${s.force_kn === null ? 'n/a' : `${s.force_kn} kN`}, back gauge ${mm(s.back_gauge_mm)}${s.image_url ? `, ${s.image_url}` : ''}`);
    }
  }
  return out;
}

/** Each step's picture as MCP content: SVG text under the URL the API serves it at, like the DFM images. */
const bendStepContent = (pics: BendStepPicture[]): CallToolResult['content'] => pics.flatMap((pic) => [
  { type: 'text' as const, text: `Bend step ${pic.step} of part ${pic.part_id}: bend ${pic.bend_id}, the part on the die under the punch at the bottom of the stroke` },
  { type: 'resource' as const, resource: { uri: pic.url ?? `kerf:bend-step/${pic.part_id}/${pic.step}`, mimeType: 'image/svg+xml', text: pic.svg } },
]);

/** A report's nest at a quantity (GET /v1/dfm/{id}/nest), a line per material. */
function nestLines(nest: Awaited<ReturnType<typeof getDfmNest>>): string[] {
  if (!nest.nests.length) return [`Sheet nest at ${nest.quantity}: none (no sheet part is priced: choose its material first).`];
  return nest.nests.map((n) => `Sheet nest at ${nest.quantity}: ${n.material_id} on ${n.sheet_count} sheet(s) of ${n.sheet_length_mm} x ${n.sheet_width_mm} mm, utilisation ${Math.round(n.utilization * 1000) / 10} %, ${n.sheets} sheets' area charged${n.sampled ? ' (a proportional sample of the pieces)' : ''}.`);
}

/** Each nest sheet's DXF and SVG as resource links (signed download links). */
const nestLinks = (nest: Awaited<ReturnType<typeof getDfmNest>>): CallToolResult['content'] => nest.production_files.map((f) => ({
  type: 'resource_link' as const, uri: f.url, name: f.file_name, mimeType: f.content_type,
  description: `${f.kind === 'nest_dxf' ? 'DXF for cutting' : 'Picture'} of sheet ${f.sheet} of ${f.sheet_count} of ${f.material_id}`,
}));

export function quoteText(q: Record<string, unknown>): string {
  const items = (q.items as Array<{ design_id: string; status: string; quantity: number; amount_cents: number | null; dfm?: DfmLike }>) ?? [];
  // only a ready quote has a price to state: a figure beside "blocked" reads as one
  const ready = q.status === 'ready';
  const lines = [ready
    ? `Quote ${String(q.id)} is ready: total ${cents(q.amount_total_cents)} (subtotal ${cents(q.amount_subtotal_cents)}), valid until ${String(q.expires_at)}.`
    : `Quote ${String(q.id)} is ${String(q.status)}: no total until it is ready (it cannot be ordered as configured).`];
  for (const it of items) {
    lines.push(`Item ${it.design_id} x${it.quantity}: ${it.status}${ready ? `, ${cents(it.amount_cents)}` : ''}${it.dfm ? ` (DFM report ${it.dfm.id})` : ''}`);
    if (it.dfm) lines.push(...findings(it.dfm));
  }
  if (q.status === 'ready') lines.push(`Next: create_checkout with quote_id ${String(q.id)} for a web checkout link a person opens to pay; or create_review_link so a person can check the configuration first.`);
  else if (q.status === 'requires_input') lines.push('Next: add the missing selections listed above to the configuration and call quote_designs again with a new operation_key.');
  else if (q.status === 'blocked') lines.push('Next: the design cannot be made as configured; change the configuration or the design (see the blocking findings).');
  else if (q.status === 'processing') lines.push(`Still processing: call get_quote with quote_id ${String(q.id)} and wait_seconds 25.`);
  return lines.join('\n');
}

const quoteDesignsTool: ToolDef = {
  name: 'quote_designs',
  title: 'Quote designs',
  description: 'Prices ready designs under a configuration, with a full DFM report per item. Status ready (can be checked out), requires_input (selections missing: the requirements say which) or blocked (cannot be made). Every unique part of an assembly needs its selections.',
  input: Type.Object({
    items: Type.Array(Type.Object({
      design_id: DesignId,
      quantity: described(schemas.QuoteItemRequest.properties.quantity, 'Completed design units; each part is made quantity x its instance_count times.'),
      configuration: Type.Optional(Configuration),
      client_reference_id: Type.Optional(described(schemas.QuoteItemRequest.properties.client_reference_id, 'Your own reference for this item.')),
      quantity_options: Type.Optional(described(schemas.QuoteItemRequest.properties.quantity_options, 'Up to 10 other quantities to compare prices for.')),
    }, strict), { minItems: 1, maxItems: 50, description: 'What to quote: one entry per design.' }),
    ship_to: Type.Optional(described(schemas.QuoteRequest.properties.ship_to, 'US destination, for shipping options (optional).')),
    operation_key: OperationKey,
  }, strict),
  scopes: ['quotes'],
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(env, args) {
    const q = (await write('quote_designs', 'quotes', env, args, (input) => createQuote(env.ctx, env.caller, input as Static<typeof schemas.QuoteRequest>))) as Record<string, unknown>;
    return toolResult(quoteText(q), q);
  },
};

const configureDesignTool: ToolDef = {
  name: 'configure_design',
  title: 'Check a configuration (DFM)',
  description: 'A DFM report of a ready design under a configuration: per-part findings, what is still required, and (optionally) the detailed capabilities (which finishes, taps, studs, nuts, standoffs and countersinks fit which holes) and annotated previews that mark every finding. Use it to build a valid configuration before quoting.',
  input: Type.Object({
    design_id: DesignId,
    configuration: Type.Optional(Configuration),
    include_capabilities: Type.Optional(Type.Boolean({ default: true, description: 'Return each part\'s capabilities (options per hole and finish eligibility).' })),
    include_previews: Type.Optional(Type.Boolean({ default: true, description: 'Return the annotated DFM images (SVG) of up to 4 parts.' })),
    operation_key: OperationKey,
  }, strict),
  scopes: ['dfm'],
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(env, args) {
    const { include_capabilities: caps = true, include_previews: previews = true, ...rest } = args;
    const dfm = await write('configure_design', 'dfm', env, rest, (input) => createDfmReport(env.ctx, env.caller, { ...(input as Static<typeof schemas.DfmRequest>), generate_production_files: false }));
    const shown = caps ? dfm : { ...dfm, parts: dfm.parts.map(({ capabilities: _c, ...p }: Record<string, unknown>) => p) };
    const images = previews ? await previewDfm(env.ctx, env.caller, { dfm_id: dfm.id }) : [];
    const f = findings(dfm);
    const next = dfm.status === 'ready' ? 'The configuration is complete: quote it with quote_designs.' : dfm.status === 'requires_input' ? 'Add the required selections and call configure_design again (new operation_key).' : 'Blocked: change the configuration or the design.';
    const text = [`DFM report ${dfm.id} of design ${dfm.design_id}: ${dfm.status}.`, ...f, next, dfm.review_url ? `A person can review it at ${dfm.review_url}.` : ''].filter(Boolean).join('\n');
    return toolResult(text, shown as Record<string, unknown>, images.flatMap(imageContent));
  },
};

const getQuoteTool: ToolDef = {
  name: 'get_quote',
  title: 'Get a quote',
  description: 'A quote by id: resumes one that is still processing (wait_seconds up to 25), or reads a ready one again (an expired quote must be quoted again).',
  input: Type.Object({ quote_id: Type.String({ minLength: 1, maxLength: 100, description: 'A quote id (quo_...).' }), wait_seconds: Type.Optional(WaitSeconds) }, strict),
  scopes: ['quotes'],
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(env, args) {
    const id = String(args.quote_id);
    const wait = Number(args.wait_seconds ?? 0);
    const q = wait > 0 ? await waitForQuote(env.ctx, env.caller, { quote_id: id, wait_seconds: wait }) : await getQuote(env.ctx, env.caller, { quote_id: id });
    return toolResult(quoteText(q), q);
  },
};

const getDfmTool: ToolDef = {
  name: 'get_dfm',
  title: 'Get a DFM report',
  description: 'A DFM report by id (from configure_design or a quote item): findings, requirements, capabilities, the production files status, and each bent part\'s press-brake bend table with a picture (SVG) of every step; with nest_quantity, the sheet nest at that quantity (utilisation, each sheet\'s DXF and SVG as links).',
  input: Type.Object({
    dfm_id: Type.String({ minLength: 1, maxLength: 100, description: 'A DFM report id (dfm_...).' }),
    include_bend_steps: Type.Optional(Type.Boolean({ default: true, description: 'Return the pictures (SVG) of each bend step of up to 4 bent parts: the part on the die under the punch.' })),
    nest_quantity: Type.Optional(described(schemas.DfmNestInput.properties.quantity, 'Also nest the report\'s sheet parts at this many design units (1-10000; instance counts multiply it), as a quote of that quantity is priced from: each material\'s utilisation, and every stock sheet\'s DXF for cutting and SVG as download links.')),
  }, strict),
  scopes: ['dfm'],
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(env, args) {
    const dfm = await getDfmReport(env.ctx, env.caller, { dfm_id: String(args.dfm_id) });
    const pictures = args.include_bend_steps === false ? [] : await bendStepPictures(env.ctx, env.caller, { dfm_id: dfm.id, max_parts: 4 });
    const nest = args.nest_quantity === undefined ? null : await getDfmNest(env.ctx, env.caller, { dfm_id: dfm.id, quantity: Number(args.nest_quantity) });
    const text = [`DFM report ${dfm.id} of design ${dfm.design_id}: ${dfm.status}; production files ${dfm.production_files.status}.`, ...findings(dfm), ...bendSequences(dfm), ...bendTables(dfm), ...(nest ? nestLines(nest) : [])].join('\n');
    return toolResult(text, dfm, [...bendStepContent(pictures), ...(nest ? nestLinks(nest) : [])]);
  },
};

// ---- review links -----------------------------------------------------------------------------

const createReviewLinkTool: ToolDef = {
  name: 'create_review_link',
  title: 'Create a review link',
  description: 'A web page where a person inspects (and may edit) a design\'s configuration. After they are done, read it back with get_review_link and re-quote the returned configuration before checkout.',
  input: Type.Object({
    design_id: DesignId,
    configuration: Type.Optional(Configuration),
    dfm_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'A DFM report of this design to show beside it.' })),
    operation_key: OperationKey,
  }, strict),
  scopes: ['designs'],
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(env, args) {
    const link = (await write('create_review_link', 'designs', env, args, (input) => createReviewLink(env.ctx, env.caller, input as Static<typeof schemas.ReviewLinkRequest>))) as Record<string, unknown>;
    return toolResult(await withWebLinksNote(env, `Review link ${String(link.id)}: send the person to ${String(link.review_url)} (open until ${String(link.expires_at)}). Afterwards call get_review_link with review_link_id ${String(link.id)} and quote its configuration again.`), link);
  },
};

const getReviewLinkTool: ToolDef = {
  name: 'get_review_link',
  title: 'Read a review link back',
  description: 'The review link with the configuration as the person left it (status saved after an edit). Re-quote that configuration before checkout.',
  input: Type.Object({ review_link_id: Type.String({ minLength: 1, maxLength: 100, description: 'A review link id (rvl_...).' }) }, strict),
  scopes: ['designs'],
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(env, args) {
    const link = await getReviewLink(env.ctx, env.caller, { review_link_id: String(args.review_link_id) });
    const edited = link.status === 'saved' ? `It was edited at ${String(link.configuration_updated_at)}: quote the configuration below again (quote_designs) before checkout.` : `Status ${String(link.status)}.`;
    return toolResult(`Review link ${link.id} of design ${String(link.design_id)}. ${edited}\nconfiguration: ${json(link.configuration)}`, link);
  },
};

/** Every tool, in the order an agent uses them. */
export function toolList(mode: 'hosted' | 'local'): ToolDef[] {
  return [
    prepareUploadTool(mode), inspectDesignTool, previewDesignTool, searchCatalogTool, configureDesignTool, quoteDesignsTool,
    getQuoteTool, getDfmTool, createReviewLinkTool, getReviewLinkTool, checkoutTool(write), orderProductionFilesTool,
  ];
}
