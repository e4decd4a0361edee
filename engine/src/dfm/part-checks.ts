// Rules for one part with its selections: stock, size, bends, holes, hole operations, finish.
import type { HoleInfo, Part } from '../contract.ts';
import type { Catalog, CatalogKind, Hardware, HardwareKind, Material, TubeProfile } from '../catalog/types.ts';
import type { CatalogIndex } from '../catalog/index.ts';
import type { PartConfiguration, Selections } from './configuration.ts';
import {
  checkHole, countersinkFit, hardwareHoleFit, hardwarePartFit, madeRadius, tapHoleFit, tapPartFit, type Finding, type IssueSource, type SheetContext,
} from './hole-checks.ts';
import { finishUnavailableReason, type Stock } from './capabilities.ts';
import { toolingRadiusAdjustment } from '../sheet/tooling.ts';
import { planBends, type BendPlan } from '../brake/index.ts';
import { blindFeatureFindings } from './blind-checks.ts';
import { closestIds, didYouMean } from '../catalog/suggest.ts';
import { catalogOffer, cornerRadiusDifference, sectionText, tubeProfileFits } from './tube-stock.ts';
import {
  BEND_RADIUS_TOL_MM, COUNTERSINK_ANGLES, COUNTERSINK_ANGLE_TOL_DEG, MAX_BEND_ANGLE_DEG, MIN_PART_BENT_MM, MIN_PART_CUT_MM, SHARP_BEND_RADIUS_MM, SIZE_TOL_MM,
  TUBE_HOLE_MIN_WALL_RATIO, thicknessTolerance,
} from './rules.ts';

/**
 * A finding located on the part, with where it comes from (its issue `source`): `geometry`,
 * the part's shape alone against the shop's rules (a modelled countersink included); `catalog`, the
 * selected catalog item cannot be used for this part (material, tube profile, finish, colour, or a
 * tap / insert against the part's material and thickness); `configuration`, a selection that does not
 * fit where it was put (a hole operation against its hole, conflicting selections).
 */
export interface PartFinding extends Finding { hole_id: number | null; operation: string | null; source: IssueSource }
/** A missing selection; `catalog` is the list whose ids the field takes. */
export interface Requirement { code: string; message: string; field: string; catalog: CatalogKind }
export interface ProductionWarning { code: string; message: string }

export interface PartCheckResult {
  stock: Stock;
  findings: PartFinding[];
  requirements: Requirement[];
  productionWarnings: ProductionWarning[];
  /** effective finish (a colour alone implies powder coat) */
  finishId: string | null;
  colorId: string | null;
  /** the press-brake plan of a bent sheet part, or null */
  bendPlan: BendPlan | null;
}

const mm = (x: number): string => `${Number(x.toFixed(2))} mm`;
const round3 = (x: number): number => Number(x.toFixed(3));
/** An outer corner radius below this is called sharp, mm. */
const TUBE_SHARP_CORNER_MM = 0.05;

/** How many matching materials a thickness_mismatch message names (details carries them all). */
const MAX_LISTED_MATERIALS = 8;

/**
 * Available catalog materials the detected thickness matches (within each one's own tolerance):
 * those of the configured material's type first, then the others.
 */
function materialsOfThickness(ix: CatalogIndex, thicknessMm: number, configured: Material): string[] {
  const fits = [...ix.materials.values()].filter((c) => c.available && Math.abs(c.thickness_mm - thicknessMm) <= thicknessTolerance(c.thickness_mm));
  return [...fits.filter((c) => c.type === configured.type), ...fits.filter((c) => c.type !== configured.type)].map((c) => c.id);
}
const at = (f: Finding, source: IssueSource, hole_id: number | null = null, operation: string | null = null): PartFinding => ({ ...f, bend_id: f.bend_id ?? null, hole_id, operation, source });
const blockingFinding = (source: IssueSource, code: string, message: string, details: Record<string, unknown> = {}, hole_id: number | null = null, operation: string | null = null, bend_id: number | null = null): PartFinding =>
  ({ code, message, severity: 'blocking', details, hole_id, operation, bend_id, source });

/** What each process needs as stock: the selection field, its catalog, and how it is named. */
const STOCK_FIELDS = {
  sheet_metal: { field: 'material_id', other: 'tube_profile_id', noun: 'sheet material', what: 'sheet metal', catalog: 'materials', required: 'material_required', invalid: 'invalid_material_id', label: 'Material' },
  tube_laser: { field: 'tube_profile_id', other: 'material_id', noun: 'tube profile', what: 'a tube', catalog: 'tube-profiles', required: 'tube_profile_required', invalid: 'invalid_tube_profile_id', label: 'Tube profile' },
} as const;

function resolveStock(part: Part, sel: Selections, partCfg: PartConfiguration | null, ix: CatalogIndex, findings: PartFinding[], requirements: Requirement[]): Stock {
  const s = STOCK_FIELDS[part.suggested_process];
  const wrong = partCfg?.[s.other];
  if (wrong) findings.push(blockingFinding('catalog', 'stock_not_for_process', `Part ${part.name} is ${s.what}; ${s.other} ${wrong} does not apply. Select a ${s.field}.`, { [s.other]: wrong }));
  const id = sel[s.field];
  if (!id) {
    // a tube's requirement says which profiles are its section, or that the catalog has none
    const offer = part.suggested_process === 'tube_laser' && part.tube ? ` ${catalogOffer(part.tube, ix.tube_profiles.values()).text}` : '';
    requirements.push({ code: s.required, field: s.field, catalog: s.catalog, message: `Select a ${s.noun} for part ${part.name}.${offer}` });
    return { kind: 'none', reason: `Select a ${s.noun} first.` };
  }
  const entry = part.suggested_process === 'sheet_metal' ? ix.materials.get(id) : ix.tube_profiles.get(id);
  if (!entry) {
    const suggestions = closestIds(id, (part.suggested_process === 'sheet_metal' ? ix.materials : ix.tube_profiles).keys());
    const message = `${s.label} ${id} is not in the catalog.${didYouMean(suggestions)}`;
    findings.push(blockingFinding('catalog', s.invalid, message, { [s.field]: id, suggestions }));
    return { kind: 'none', reason: message };
  }
  if (!entry.available) findings.push(blockingFinding('catalog', 'option_unavailable', `${'name' in entry ? entry.name : entry.display_name} is not available.`, { [s.field]: entry.id }));
  return entry.object === 'material' ? { kind: 'sheet', material: entry } : { kind: 'tube', profile: entry };
}

function sheetChecks(part: Part, m: Material, ix: CatalogIndex, findings: PartFinding[], warnings: ProductionWarning[]): void {
  const t = m.thickness_mm;
  if (part.detected_thickness_mm !== null) {
    const tol = thicknessTolerance(t);
    if (Math.abs(part.detected_thickness_mm - t) > tol) {
      const matching = materialsOfThickness(ix, part.detected_thickness_mm, m);
      const offer = matching.length > 0
        ? ` Materials of that thickness: ${matching.slice(0, MAX_LISTED_MATERIALS).join(', ')}${matching.length > MAX_LISTED_MATERIALS ? `, and ${matching.length - MAX_LISTED_MATERIALS} more` : ''}.`
        : ' No catalog material has that thickness.';
      findings.push(blockingFinding('catalog', 'thickness_mismatch',
        `Part ${part.name} is ${mm(part.detected_thickness_mm)} thick; ${m.name} is ${mm(t)} (tolerance +-${mm(tol)}). Pick a material of the part's thickness.${offer}`,
        { detected_thickness_mm: round3(part.detected_thickness_mm), material_thickness_mm: t, tolerance_mm: round3(tol), matching_material_ids: matching }));
    }
  }
  const fp = part.flat_pattern;
  if (fp) {
    const maxL = m.max_sheet_size_mm.length_mm, maxW = m.max_sheet_size_mm.width_mm;
    if (fp.length_mm > maxL + SIZE_TOL_MM || fp.width_mm > maxW + SIZE_TOL_MM) {
      findings.push(blockingFinding('geometry', 'part_too_large', `Flat pattern ${mm(fp.length_mm)} x ${mm(fp.width_mm)} does not fit the ${mm(maxL)} x ${mm(maxW)} sheet.`,
        { flat_length_mm: fp.length_mm, flat_width_mm: fp.width_mm, max_length_mm: maxL, max_width_mm: maxW }));
    }
    const [minL, minW] = part.bend_count > 0 ? MIN_PART_BENT_MM : MIN_PART_CUT_MM;
    if (fp.length_mm < minL - SIZE_TOL_MM || fp.width_mm < minW - SIZE_TOL_MM) {
      findings.push(blockingFinding('geometry', 'part_too_small', `Flat pattern ${mm(fp.length_mm)} x ${mm(fp.width_mm)} is below the ${mm(minL)} x ${mm(minW)} minimum for ${part.bend_count > 0 ? 'bent' : 'cut'} parts (too small to hold safely).`,
        { flat_length_mm: fp.length_mm, flat_width_mm: fp.width_mm, min_length_mm: minL, min_width_mm: minW }));
    }
  }
  if (part.bends.length > 0 && !m.bendable) {
    findings.push(blockingFinding('catalog', 'material_not_bendable', `${m.name} is not bent in our shop (${m.type === 'aluminum_6061' ? 'it cracks' : 'outside the 0.030"-0.250" brake range'}); this part has ${part.bends.length} bend(s). Pick a bendable material.`,
      { bend_count: part.bends.length, material_id: m.id }));
    return;
  }
  let flangesMeasured = true;
  for (const b of part.bends) {
    if (b.radius_mm < SHARP_BEND_RADIUS_MM) {
      // the design flat follows the model; the tooling radius is this production adjustment
      const grow = toolingRadiusAdjustment(b.angle_degrees * Math.PI / 180, b.radius_mm, m.default_bend_radius_mm);
      warnings.push({ code: 'sharp_bend_radius_applied', message: `Bend ${b.id} is modelled sharp (inner radius ${mm(b.radius_mm)}); it will be made with the ${mm(m.default_bend_radius_mm)} inner radius of ${m.name}, so the production flat is ${mm(Math.abs(grow))} ${grow >= 0 ? 'longer' : 'shorter'} across this bend than the design flat, which follows the model.` });
    } else if (b.radius_mm < m.min_bend_radius_mm - BEND_RADIUS_TOL_MM) {
      findings.push(blockingFinding('geometry', 'bend_radius_too_small', `Bend ${b.id} has inner radius ${mm(b.radius_mm)}; ${m.name} bends no tighter than ${mm(m.min_bend_radius_mm)}.`,
        { radius_mm: b.radius_mm, min_radius_mm: m.min_bend_radius_mm }, null, null, b.id));
    }
    if (b.angle_degrees > MAX_BEND_ANGLE_DEG) {
      findings.push(blockingFinding('geometry', 'bend_angle_too_large', `Bend ${b.id} turns ${Number(b.angle_degrees.toFixed(1))} deg; the brake makes at most ${MAX_BEND_ANGLE_DEG} deg (no hems or closed bends).`,
        { angle_degrees: b.angle_degrees, max_angle_degrees: MAX_BEND_ANGLE_DEG }, null, null, b.id));
    }
    if (b.length_mm > m.max_bend_length_mm + SIZE_TOL_MM) {
      findings.push(blockingFinding('geometry', 'bend_too_long', `Bend ${b.id} is ${mm(b.length_mm)} long; the brake bends ${m.display_thickness} up to ${mm(m.max_bend_length_mm)}.`,
        { length_mm: b.length_mm, max_length_mm: m.max_bend_length_mm }, null, null, b.id));
    }
    const fl = b.flange_lengths_mm;
    if (fl) {
      const shortest = Math.min(fl[0], fl[1]);
      if (shortest < m.min_flange_length_mm - SIZE_TOL_MM) {
        findings.push(blockingFinding('geometry', 'flange_too_short', `A flange of bend ${b.id} is ${mm(shortest)} long; ${m.display_thickness} needs ${mm(m.min_flange_length_mm)} (4 x thickness + radius) to sit on the die.`,
          { flange_length_mm: shortest, min_flange_length_mm: m.min_flange_length_mm }, null, null, b.id));
      }
    } else flangesMeasured = false;
  }
  if (part.bends.length > 0 && !flangesMeasured) {
    warnings.push({ code: 'flange_length_not_checked', message: 'Flange lengths were not measured for this part; the shop checks the minimum flange at review.' });
  }
  const ctx: SheetContext = { part, material: m, thickness: t };
  for (const h of part.holes) {
    for (const f of checkHole(h, ctx)) findings.push(at(f, 'geometry', h.id, null));
    // a countersink modelled in the part is made like a configured one and checked the same way
    if (h.countersink) {
      const angle = h.countersink.angle_degrees;
      if (!COUNTERSINK_ANGLES.some((a) => Math.abs(a - angle) <= COUNTERSINK_ANGLE_TOL_DEG)) {
        findings.push(blockingFinding('geometry', 'countersink_angle_unsupported', `Hole ${h.id} is countersunk at ${Number(angle.toFixed(1))} deg; the shop's countersinks are ${COUNTERSINK_ANGLES.join(' and ')} deg.`,
          { angle_degrees: angle, angles_degrees: [...COUNTERSINK_ANGLES] }, h.id, 'countersink'));
      }
      for (const f of countersinkFit(h.countersink.outer_diameter_mm, angle, h, ctx)) findings.push(at(f, 'geometry', h.id, 'countersink'));
    }
  }
}

function tubeChecks(part: Part, p: TubeProfile, ix: CatalogIndex, findings: PartFinding[], warnings: ProductionWarning[]): void {
  const tube = part.tube;
  if (!tube) return;
  if (!tubeProfileFits(tube, p)) {
    const offer = catalogOffer(tube, ix.tube_profiles.values());
    findings.push(blockingFinding('catalog', 'tube_profile_mismatch', `Part ${part.name} is a ${sectionText(tube)} tube; ${p.display_name} is a different section. ${offer.text}`,
      { part_profile: tube.profile, part_outer_diameter_mm: tube.outer_diameter_mm, part_outer_width_mm: tube.outer_width_mm, part_outer_height_mm: tube.outer_height_mm, part_wall_thickness_mm: tube.wall_thickness_mm, tube_profile_id: p.id,
        matching_tube_profile_ids: offer.matching, nearest_tube_profile_ids: offer.nearest }));
  } else {
    const corner = cornerRadiusDifference(tube, p);
    if (corner) {
      warnings.push({ code: 'tube_corner_radius_differs', message: `Part ${part.name} is modelled with ${corner.model_mm < TUBE_SHARP_CORNER_MM ? 'sharp corners' : `${mm(corner.model_mm)} outer corners`}; ${p.display_name} is made with ${mm(corner.stock_mm)} outer corners, so the tube's corners (and cuts that reach them) follow the stock, not the model.` });
    }
  }
  if (tube.length_mm > p.default_stock_length_mm + SIZE_TOL_MM) {
    findings.push(blockingFinding('geometry', 'part_too_long', `Tube length ${mm(tube.length_mm)} exceeds the ${mm(p.default_stock_length_mm)} stock length.`, { length_mm: tube.length_mm, max_length_mm: p.default_stock_length_mm }));
  }
  const inner = (p.shape === 'round' ? p.outer_diameter_mm ?? 0 : Math.min(p.outer_width_mm ?? 0, p.outer_height_mm ?? 0)) - 2 * p.wall_thickness_mm;
  for (const h of part.holes) {
    const min = TUBE_HOLE_MIN_WALL_RATIO * p.wall_thickness_mm;
    if (h.diameter_mm < min) findings.push(blockingFinding('geometry', h.shape === 'slot' ? 'slot_too_small' : 'hole_too_small', `Hole ${h.id} (${mm(h.diameter_mm)}) is smaller than the ${mm(min)} tube wall.`, { diameter_mm: h.diameter_mm, min_diameter_mm: min }, h.id));
    if (h.diameter_mm > inner) findings.push(blockingFinding('geometry', 'hole_too_large', `Hole ${h.id} (${mm(h.diameter_mm)}) is wider than the ${mm(inner)} inside of the tube face.`, { diameter_mm: h.diameter_mm, max_diameter_mm: inner }, h.id));
  }
}

/** A brake finding's source: tonnage follows from the selected material, the rest from the part's shape on the shop's tools. */
const BRAKE_SOURCE: Record<string, IssueSource> = { tonnage_exceeded: 'catalog' };

/**
 * The press-brake plan of a bent part in a bendable material, when the catalog has tooling and no
 * bend is already refused for its angle (a hem or closed bend is not air bent).
 */
function brakeChecks(part: Part, m: Material, catalog: Catalog, findings: PartFinding[]): BendPlan | null {
  if (!catalog.press_brake || part.bends.length === 0 || !m.bendable || part.bends.some((b) => b.angle_degrees > MAX_BEND_ANGLE_DEG)) return null;
  const short = new Set(findings.filter((f) => f.code === 'flange_too_short' && f.bend_id !== null).map((f) => f.bend_id!));
  let planned: ReturnType<typeof planBends>;
  try {
    planned = planBends(part, m, catalog.press_brake, short);
  } catch (err) {
    // the simulation must never take the report down: the part is reported as not simulated
    return { status: 'not_checked', message: `The press-brake simulation failed on this part (${(err as Error)?.message ?? String(err)}); the shop plans the bends at review.`, brake_id: catalog.press_brake.brake.id, sequence: [], bends: [], tries: 0, checks: 0 };
  }
  const { plan, findings: fs } = planned;
  for (const f of fs) findings.push({ code: f.code, message: f.message, severity: f.severity, details: f.details, hole_id: null, operation: null, bend_id: f.bend_id, source: BRAKE_SOURCE[f.code] ?? 'geometry' });
  return plan;
}

type OpKind = 'tap' | 'stud' | 'nut' | 'standoff' | 'countersink';

function operationChecks(part: Part, cfg: PartConfiguration | null, stock: Stock, ix: CatalogIndex, findings: PartFinding[], warnings: ProductionWarning[]): void {
  if (!cfg) return;
  const holes = new Map<number, HoleInfo>(part.holes.map((h) => [h.id, h]));
  const inserts = new Map<number, OpKind[]>();
  const csks = new Map<number, number>();
  const ops: Array<{ kind: OpKind; hole_id: number; run: (h: HoleInfo) => void }> = [];
  const ctx: SheetContext | null = stock.kind === 'sheet' ? { part, material: stock.material, thickness: stock.material.thickness_mm } : null;
  // the item against the part's material and thickness is the catalog's; against its hole, the configuration's
  const push = (fs: Finding[], source: IssueSource, h: HoleInfo, op: OpKind): void => { for (const f of fs) findings.push(at(f, source, h.id, op)); };
  // a hole already countersunk in the model counts as its first countersink
  const n0 = (h: HoleInfo): number => (h.countersink && !csks.has(h.id) ? 1 : 0);

  for (const s of cfg.taps) ops.push({ kind: 'tap', hole_id: s.hole_id, run: (h) => {
    const tap = ix.taps.get(s.tap_id);
    if (!tap) { findings.push(blockingFinding('catalog', 'invalid_tap_id', `Tap ${s.tap_id} is not in the catalog.`, { tap_id: s.tap_id }, h.id, 'tap')); return; }
    if (!ctx) return;
    push(tapPartFit(tap, ctx), 'catalog', h, 'tap');
    push(tapHoleFit(tap, h), 'configuration', h, 'tap');
    if (h.diameter_mm > tap.tap_drill_mm + 0.1 && h.diameter_mm <= tap.hole_diameter_max_mm) {
      warnings.push({ code: 'tap_hole_cut_at_drill_size', message: `Hole ${h.id} is modelled at the ${tap.thread} major diameter; it will be cut at the ${tap.tap_drill_mm} mm tap drill size.` });
    }
  } });
  const hardware: Array<[HardwareKind, OpKind, Array<{ hole_id: number; id: string }>]> = [
    ['studs', 'stud', cfg.studs.map((s) => ({ hole_id: s.hole_id, id: s.stud_id }))],
    ['nuts', 'nut', cfg.nuts.map((s) => ({ hole_id: s.hole_id, id: s.nut_id }))],
    ['standoffs', 'standoff', cfg.standoffs.map((s) => ({ hole_id: s.hole_id, id: s.standoff_id }))],
  ];
  for (const [kind, op, sels] of hardware) for (const s of sels) ops.push({ kind: op, hole_id: s.hole_id, run: (h) => {
    const item = ix[kind].get(s.id) as Hardware | undefined;
    if (!item) { findings.push(blockingFinding('catalog', `invalid_${op}_id`, `${op[0].toUpperCase()}${op.slice(1)} ${s.id} is not in the catalog.`, { [`${op}_id`]: s.id }, h.id, op)); return; }
    if (!ctx) return;
    push(hardwarePartFit(item, ctx), 'catalog', h, op);
    push(hardwareHoleFit(item, h, ctx), 'configuration', h, op);
  } });
  for (const s of cfg.countersinks) ops.push({ kind: 'countersink', hole_id: s.hole_id, run: (h) => {
    if (ctx) push(countersinkFit(s.outer_diameter_mm, s.angle, h, ctx), 'configuration', h, 'countersink');
  } });

  for (const op of ops) {
    const h = holes.get(op.hole_id);
    if (!h) {
      findings.push(blockingFinding('configuration', 'invalid_hole_id', `Part ${part.name} has no hole ${op.hole_id} (holes: ${part.holes.map((x) => x.id).join(', ') || 'none'}).`, { hole_id: op.hole_id }, op.hole_id, op.kind));
      continue;
    }
    if (stock.kind === 'tube') {
      findings.push(blockingFinding('configuration', 'operation_not_available', `${op.kind} operations are not offered on tube parts.`, {}, h.id, op.kind));
      continue;
    }
    if (op.kind === 'countersink') {
      const n = (csks.get(h.id) ?? 0) + 1 + (n0(h));
      csks.set(h.id, n);
      if (n === 2) findings.push(blockingFinding('configuration', 'duplicate_hole_operation', h.countersink ? `Hole ${h.id} is already countersunk in the model; drop the configured countersink.` : `Hole ${h.id} has more than one countersink.`, {}, h.id, 'countersink'));
    } else {
      const list = inserts.get(h.id) ?? [];
      list.push(op.kind);
      inserts.set(h.id, list);
      if (list.length === 2) findings.push(blockingFinding('configuration', 'duplicate_hole_operation', `Hole ${h.id} has more than one tap or insert (${list.join(', ')}); one hole takes one.`, { operations: list }, h.id, op.kind));
    }
    op.run(h);
  }
  const countersunk = new Set([...csks.keys(), ...part.holes.filter((h) => h.countersink).map((h) => h.id)]);
  for (const holeId of countersunk) {
    const other = inserts.get(holeId);
    if (other?.length) findings.push(blockingFinding('configuration', 'conflicting_hole_operations', `Hole ${holeId} cannot be countersunk and take a ${other[0]} too.`, { operations: ['countersink', ...other] }, holeId, 'countersink'));
  }
}

function finishChecks(part: Part, sel: Selections, stock: Stock, ix: CatalogIndex, catalog: Catalog, findings: PartFinding[], requirements: Requirement[]): { finishId: string | null; colorId: string | null } {
  const colorId = sel.powder_coat_color_id ?? null;
  const powder = catalog.finishes.find((f) => f.type === 'powder_coat') ?? null;
  let finishId = sel.finish_id ?? (colorId && powder ? powder.id : null);
  if (finishId) {
    const f = ix.finishes.get(finishId);
    if (!f) {
      findings.push(blockingFinding('catalog', 'invalid_finish_id', `Finish ${finishId} is not in the catalog.`, { finish_id: finishId }, null, 'finish'));
      finishId = null;
    } else {
      const why = stock.kind === 'none' ? null : finishUnavailableReason(f, part, stock);
      if (why) findings.push(blockingFinding('catalog', 'finish_not_available', why, { finish_id: f.id }, null, 'finish'));
      if (f.requires_color && !colorId) requirements.push({ code: 'powder_coat_color_required', field: 'powder_coat_color_id', catalog: 'powder-coat-colors', message: `Select a powder-coat colour for part ${part.name}.` });
      if (!f.requires_color && colorId) findings.push(blockingFinding('configuration', 'color_requires_powder_coat', `A powder-coat colour was selected but the finish is ${f.name}; choose finish ${powder?.id ?? 'powder coat'} or drop the colour.`, { finish_id: f.id, powder_coat_color_id: colorId }, null, 'finish'));
    }
  }
  if (colorId) {
    const c = ix.powder_coat_colors.get(colorId);
    if (!c) findings.push(blockingFinding('catalog', 'invalid_powder_coat_color_id', `Powder-coat colour ${colorId} is not in the catalog.`, { powder_coat_color_id: colorId }, null, 'finish'));
    else if (!c.available) findings.push(blockingFinding('catalog', 'option_unavailable', `${c.name} is not available.`, { powder_coat_color_id: c.id }, null, 'finish'));
  }
  return { finishId, colorId };
}

export function checkPart(part: Part, sel: Selections, cfg: PartConfiguration | null, catalog: Catalog, ix: CatalogIndex): PartCheckResult {
  const findings: PartFinding[] = [];
  const requirements: Requirement[] = [];
  const productionWarnings: ProductionWarning[] = [];
  if (!part.manufacturable) {
    findings.push(blockingFinding('geometry', 'part_not_manufacturable', part.unsupported_message ?? `Part ${part.name} cannot be made (${part.unsupported_reason ?? 'unsupported'}).`, { reason: part.unsupported_reason }));
    const stock: Stock = { kind: 'none', reason: 'This part cannot be made.' };
    return { stock, findings, requirements, productionWarnings, finishId: null, colorId: null, bendPlan: null };
  }
  const stock = resolveStock(part, sel, cfg, ix, findings, requirements);
  // partial-depth work the laser cannot make, whatever the stock
  for (const f of blindFeatureFindings(part, cfg)) findings.push(blockingFinding('geometry', f.code, f.message, f.details, f.hole_id));
  if (stock.kind === 'sheet') sheetChecks(part, stock.material, ix, findings, productionWarnings);
  const bendPlan = stock.kind === 'sheet' ? brakeChecks(part, stock.material, catalog, findings) : null;
  if (stock.kind === 'tube') tubeChecks(part, stock.profile, ix, findings, productionWarnings);
  operationChecks(part, cfg, stock, ix, findings, productionWarnings);
  const { finishId, colorId } = finishChecks(part, sel, stock, ix, catalog, findings, requirements);
  return { stock, findings, requirements, productionWarnings, finishId, colorId, bendPlan };
}

export { madeRadius };
