// What `kerf dfm` and `kerf quote` print for a person at a terminal: one screen with each part
// (process, thickness, flat size, bends), its findings by severity, the prices per quantity and the
// next step. Scripts get the full JSON document (--json, or any stdout that is not a terminal), so
// nothing here is a format to parse. Colour only on a terminal, never with NO_COLOR (no-color.org).
import type { Design } from '@kerf/engine';
import type { PartStockChoices } from '@kerf/usecases';
import { CliError } from './local-check.ts';

interface Issue { code: string; message: string; severity: string; accepted?: boolean; source?: string; part_id?: string | null; details?: Record<string, unknown> | null }
interface Requirement { code: string; message: string; part_id?: string | null; part_ids?: string[]; field?: string | null }
interface ReportPart { part_id: string; status: string; issues: Issue[]; process?: string | null; material_id?: string | null; tube_profile_id?: string | null; finish_id?: string | null; left_out?: unknown }
export interface ReportLike { id: string; status: string; parts: ReportPart[]; requirements: Requirement[]; assembly_issues?: Issue[] }
interface QuantityOption { quantity: number; unit_amount_cents: number; amount_cents: number }
interface QuoteItem { quantity: number; status: string; unit_amount_cents: number | null; amount_cents: number | null; quantity_options?: QuantityOption[]; dfm: ReportLike }
export interface QuoteLike { id: string; status: string; currency: string; amount_total_cents: number | null; items: QuoteItem[] }

/** How many material ids the next step names before pointing at the catalog. */
const IDS_SHOWN = 4;

/** Whether to write colour: a terminal, and NO_COLOR unset or empty (its convention). */
export function useColour(isTTY: boolean | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(isTTY) && !env.NO_COLOR;
}

type Paint = (code: string, text: string) => string;
const painter = (colour: boolean): Paint => (code, text) => (colour ? `\u001b[${code}m${text}\u001b[0m` : text);

const money = (cents: number | null | undefined): string => (typeof cents === 'number' ? `$${(cents / 100).toFixed(2)}` : '-');
const mm = (v: number | null | undefined): string => (typeof v === 'number' ? `${Math.round(v * 10) / 10}` : '?');

/** The part's line: name, process, thickness, flat size, bends, instances. */
function partLine(dp: Design['parts'][number] | undefined, rp: ReportPart, paint: Paint): string {
  const name = dp?.name ?? rp.part_id;
  const bits = [rp.process ?? dp?.suggested_process ?? 'unknown process'];
  if (typeof dp?.detected_thickness_mm === 'number') bits.push(`${mm(dp.detected_thickness_mm)} mm`);
  const flat = dp?.flat_pattern_dimensions;
  if (flat) bits.push(`flat ${mm(flat.length_mm)} x ${mm(flat.width_mm)} mm`);
  if (dp) bits.push(`${dp.bend_count} bend${dp.bend_count === 1 ? '' : 's'}`);
  if (dp && dp.instance_count > 1) bits.push(`x${dp.instance_count} in the file`);
  const stock = rp.material_id ?? rp.tube_profile_id;
  if (stock) bits.push(stock);
  if (rp.left_out) bits.push('left out');
  return `${paint('1', name)}  ${bits.join(', ')}  ${status(rp.status, paint)}`;
}

function status(s: string, paint: Paint): string {
  if (s === 'ready') return paint('32', s);
  if (s === 'blocked') return paint('31', s);
  return paint('33', s);
}

/** One line per finding, the most severe first: blocking, needs input, risk (warning), accepted. */
function findingLines(rp: ReportPart, requirements: Requirement[], paint: Paint): string[] {
  const lines: Array<[number, string]> = [];
  for (const i of rp.issues) {
    if (i.severity === 'blocking') lines.push([0, `  ${paint('31', 'blocking')}     ${i.message}`]);
    else if (i.accepted) lines.push([3, `  ${paint('2', 'accepted')}     ${i.message}`]);
    else lines.push([2, `  ${paint('33', 'risk')}         ${i.message}`]);
  }
  for (const r of requirements) {
    if (r.part_id === rp.part_id || r.part_ids?.includes(rp.part_id)) lines.push([1, `  ${paint('33', 'needs input')}  ${r.message}`]);
  }
  return lines.sort((a, b) => a[0] - b[0]).map((l) => l[1]);
}

/** The next step: the ids a part without its stock can take, or what blocks. */
function nextStep(report: ReportLike, choices: readonly PartStockChoices[], names: Map<string, string>): string[] {
  const out: string[] = [];
  for (const r of report.requirements) {
    if (r.field !== 'material_id' && r.field !== 'tube_profile_id') continue;
    for (const pid of r.part_ids ?? (r.part_id ? [r.part_id] : [])) {
      const c = choices.find((x) => x.part_id === pid);
      if (!c) continue;
      const ids = c.choices.slice(0, IDS_SHOWN).map((x) => x.id);
      const more = c.choices.length > IDS_SHOWN ? ` (${c.choices.length - IDS_SHOWN} more: kerf catalog ${c.field === 'material_id' ? 'materials' : 'tube-profiles'})` : '';
      out.push(ids.length
        ? `Next: give ${names.get(pid) ?? pid} a ${c.field}: ${ids.join(', ')}${more}`
        : `Next: no catalog ${c.field === 'material_id' ? 'material' : 'tube profile'} fits ${names.get(pid) ?? pid}`);
    }
  }
  if (out.length === 0 && report.status === 'blocked') out.push('Next: resolve the blocking findings above (--json has each with its details)');
  return [...new Set(out)];
}

function partsBlock(report: ReportLike, design: Design | null, paint: Paint): string[] {
  const byId = new Map((design?.parts ?? []).map((p) => [p.id, p]));
  const lines: string[] = [];
  for (const rp of report.parts) {
    lines.push(partLine(byId.get(rp.part_id), rp, paint));
    lines.push(...findingLines(rp, report.requirements, paint));
  }
  for (const i of report.assembly_issues ?? []) lines.push(`  ${i.severity === 'blocking' ? paint('31', 'blocking') : paint('33', 'risk')}     ${i.message}`);
  return lines;
}

const partNames = (design: Design | null): Map<string, string> => new Map((design?.parts ?? []).map((p) => [p.id, p.name ?? p.id]));

export function dfmSummary(report: ReportLike, design: Design | null, choices: readonly PartStockChoices[], colour: boolean): string {
  const paint = painter(colour);
  const lines = [`DFM report ${report.id}: ${status(report.status, paint)}`, ...partsBlock(report, design, paint), ...nextStep(report, choices, partNames(design))];
  lines.push(paint('2', 'The full report: --json'));
  return lines.join('\n') + '\n';
}

export function quoteSummary(quote: QuoteLike, design: Design | null, choices: readonly PartStockChoices[], colour: boolean): string {
  const paint = painter(colour);
  const lines: string[] = [];
  const item = quote.items[0];
  // a quote that cannot be ordered shows no total: a figure there reads as a price
  const total = quote.status === 'ready' ? `, total ${money(quote.amount_total_cents)} before shipping and tax` : '';
  lines.push(`Quote ${quote.id}: ${status(quote.status, paint)}${total}`);
  for (const it of quote.items) lines.push(...partsBlock(it.dfm, design, paint));
  if (item) {
    const options = item.quantity_options?.length ? item.quantity_options : [{ quantity: item.quantity, unit_amount_cents: item.unit_amount_cents ?? 0, amount_cents: item.amount_cents ?? 0 }];
    const priced = options.some((o) => o.amount_cents > 0);
    if (priced) {
      lines.push(quote.status === 'ready' ? '  quantity        unit       total' : '  quantity        unit       total   (indicative: not orderable until resolved)');
      for (const o of options) {
        const mark = o.quantity === item.quantity ? '  <' : '';
        lines.push(`  ${String(o.quantity).padStart(8)}  ${money(o.unit_amount_cents).padStart(10)}  ${money(o.amount_cents).padStart(10)}${mark}`);
      }
    }
  }
  const next = quote.items.flatMap((it) => nextStep(it.dfm, choices, partNames(design)));
  if (next.length === 0 && quote.status === 'ready') next.push('Next: order it on the web site (upload the file at /designs/new) or through POST /v1/quotes and /v1/carts');
  lines.push(...next, paint('2', 'The full quote with each DFM report: --json'));
  return lines.join('\n') + '\n';
}

/** Every finding of a report that names a catalog id the catalog does not have (a misspelled id). */
function unknownIds(report: ReportLike): Issue[] {
  return report.parts.flatMap((p) => p.issues.filter((i) => i.source === 'catalog' && /^invalid_[a-z_]+_id$/.test(i.code) && typeof i.details?.[i.code.slice('invalid_'.length)] === 'string'));
}

/**
 * A configuration naming an id no catalog has is bad input on the command line: exit 2 with the
 * field's path and the nearest ids (the API reports it as a blocking finding of the report, which
 * the service keeps; a one-shot command has nothing to keep).
 */
export function refuseUnknownIds(reports: readonly ReportLike[], configuration: unknown): void {
  for (const report of reports) {
    const [issue] = unknownIds(report);
    if (!issue) continue;
    const field = issue.code.slice('invalid_'.length);
    const bad = issue.details?.[field];
    const parts = (configuration as { parts?: Array<Record<string, unknown>> } | undefined)?.parts;
    const at = Array.isArray(parts) ? parts.findIndex((p) => p?.part_id === issue.part_id && p?.[field] === bad) : -1;
    const param = at >= 0 ? `configuration.parts[${at}].${field}` : `configuration.defaults.${field}`;
    throw new CliError(issue.code, issue.message, param);
  }
}
