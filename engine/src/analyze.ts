// analyze(bytes) -> Design: import, topology, unique parts with instance counts, then per unique
// part the tube recogniser, else the sheet recogniser, mapped onto the contract's snake_case shapes.
import { createHash } from 'node:crypto';
import { EngineError, type Design, type Dimensions, type IgnoredBody, type Part, type PartInstance, type SuggestedProcess } from './contract.ts';
import type { Refusal, Rigid, Solid, TubeAnalysis } from './geometry/model.ts';
import { importStepDetailed, type BodyOrigin } from './import/index.ts';
import { buildSolids } from './geometry/topology.ts';
import { groupInstances, type InstanceGroup } from './parts/instances.ts';
import { dropCoincident } from './parts/duplicates.ts';
import { dimensionsIn, principalFrame } from './parts/frame.ts';
import { recognizeTube } from './tube/index.ts';
import { isWallHole } from './tube/wall-holes.ts';
import { distanceToEnds } from './tube/end-distance.ts';
import { outlineExtent, unrolledPerimeter } from './tube/outline.ts';
import { recognizeSheet, type SheetRecognition } from './sheet/index.ts';
import { recognizeBoughtIn, type BoughtInRecognition } from './hardware/index.ts';
import { seatHardware } from './hardware/seating.ts';
import { modelledSeats } from './sheet/hardware-holes.ts';
import { flatOutline } from './nest/flat-outline.ts';

/** ANSI K-factor range accepted as an explicit option (neutral axis between inner skin and middle). */
export const K_FACTOR_MIN = 0;
export const K_FACTOR_MAX = 0.5;
/** Output rounding: far below every tolerance of the acceptance criteria, mm. */
const OUTPUT_DECIMALS = 6;

export interface AnalyzeOptions {
  fileName?: string;
  /** explicit ANSI K-factor for every flat; default: from the detected r/t */
  kFactor?: number;
  /** explicit ANSI K-factor by part id (e.g. each part's configured material); wins over `kFactor` */
  kFactorByPart?: Record<string, number>;
  /** ISO timestamp for created_at (default now) */
  createdAt?: string;
  /**
   * Keep each sheet flat's cut contours on its part as `_flat_outline` (polygons within 0.1 mm, the
   * nester's input: docs/nesting.md "Part outlines"); not part of the public design, off by default.
   */
  flatOutlines?: boolean;
}

/** A sheet analysis whose bends carry their flat line and flange lengths (what Part.bends maps). */
export type PlacedSheetAnalysis = Exclude<SheetRecognition, Refusal>;

export type PartAnalysis = PlacedSheetAnalysis | TubeAnalysis | Refusal;

export interface AnalyzedInstance { id: string; solidIndex: number; /** representative solid -> this instance, world mm */ transform: Rigid }

export interface AnalyzedPart {
  part: Part;
  /** the representative solid, in file coordinates */
  solid: Solid;
  analysis: PartAnalysis;
  /** file coordinates -> the part's normalized frame */
  frame: Rigid;
  instances: AnalyzedInstance[];
  /** what the part was taken for when it is bought-in hardware (Part.bought_in) */
  boughtIn?: BoughtInRecognition | null;
}

export interface AnalyzedModel { design: Design; parts: AnalyzedPart[]; solids: Solid[] }

const round = (x: number): number => {
  const f = 10 ** OUTPUT_DECIMALS;
  const r = Math.round(x * f) / f;
  return Object.is(r, -0) ? 0 : r;
};
const roundDims = (d: Dimensions): Dimensions => ({ length_mm: round(d.length_mm), width_mm: round(d.width_mm), height_mm: round(d.height_mm) });

function hex(s: string | Uint8Array): string { return createHash('sha256').update(s).digest('hex'); }

function checkKFactor(name: string, k: unknown): void {
  if (typeof k !== 'number' || !Number.isFinite(k) || k <= K_FACTOR_MIN || k > K_FACTOR_MAX) {
    throw new EngineError('invalid_configuration', `${name} must be a number in (${K_FACTOR_MIN}, ${K_FACTOR_MAX}] (ANSI convention), got ${String(k)}`);
  }
}

function checkOptions(opts: AnalyzeOptions): void {
  if (opts.kFactor !== undefined) checkKFactor('kFactor', opts.kFactor);
  if (opts.kFactorByPart !== undefined) {
    if (typeof opts.kFactorByPart !== 'object' || opts.kFactorByPart === null) throw new EngineError('invalid_configuration', 'kFactorByPart must be an object of part id -> K-factor');
    for (const [id, k] of Object.entries(opts.kFactorByPart)) checkKFactor(`kFactorByPart.${id}`, k);
  }
}

function recognize(solid: Solid, kFactor: number | undefined): PartAnalysis {
  try {
    return recognizeTube(solid) ?? recognizeSheet(solid, kFactor === undefined ? {} : { kFactor });
  } catch (err) {
    // A recogniser bug must not take the whole design down; the part says what happened.
    return { kind: 'refused', reason: 'unsupported_geometry', message: `recognition failed: ${(err as Error)?.message ?? String(err)}`, process: 'sheet_metal' };
  }
}

/** A body with a volume below this share of its box diagonal cubed encloses nothing. */
const ZERO_VOLUME_SHARE = 1e-9;

/** An open shell bounds no volume: nothing to recognise, the part says which body and why. */
function openShellRefusal(solid: Solid, origin: Extract<BodyOrigin, { kind: 'open_shell' }>): Refusal {
  return {
    kind: 'refused', reason: 'open_shell', process: 'sheet_metal',
    message: `body '${solid.name}' is an open shell of ${origin.faces} face(s) whose free edges no other face closes (surface models are sewn first): it encloses no volume, so it cannot be made; export it as a closed solid`,
  };
}

function toPart(id: string, solid: Solid, analysis: PartAnalysis, instanceCount: number, origin: BodyOrigin, keepOutline: boolean): { part: Part; frame: Rigid } {
  const frame = analysis.kind === 'refused' ? principalFrame(solid) : analysis.frame;
  const base: Part = {
    id,
    name: solid.name,
    suggested_process: analysis.kind === 'tube' ? 'tube_laser' : analysis.kind === 'sheet' ? 'sheet_metal' : analysis.process,
    manufacturable: analysis.kind !== 'refused',
    unsupported_reason: analysis.kind === 'refused' ? analysis.reason : null,
    unsupported_message: analysis.kind === 'refused' ? analysis.message : null,
    instance_count: instanceCount,
    formed_dimensions: roundDims(dimensionsIn(solid.points, frame)),
    detected_thickness_mm: null,
    volume_mm3: origin.kind === 'open_shell' ? 0 : round(solid.volume),
    surface_area_cm2: round(solid.area / 100),
    bend_count: 0,
    bends: [],
    hole_count: 0,
    holes: [],
    blind_features: [],
    flat_pattern: null,
    flat_pattern_dimensions: null,
    cut_length_mm: null,
    tube: null,
    warnings: [
      ...(origin.kind === 'sewn' ? [{ code: 'sewn_shells', message: `body '${solid.name}' was exported as a surface model (${origin.faces} faces in open shells); they were sewn into a closed solid, which is what was analysed` }] : []),
      ...(solid.openEdges && origin.kind !== 'open_shell' ? [{ code: 'open_shell', message: `the exported solid has ${solid.openEdges} open triangle side(s) (small gaps between faces); volume and area near them are approximate` }] : []),
      ...(analysis.kind === 'refused' ? [] : analysis.warnings.map((w) => ({ code: w.code, message: w.message }))),
    ],
    model_url: null,
    flat_pattern_model_url: null,
    image_url: null,
  };
  if (analysis.kind === 'sheet') {
    const f = analysis.flat;
    base.detected_thickness_mm = round(analysis.thickness);
    const point = (p: readonly [number, number]): [number, number] => [round(p[0]), round(p[1])];
    base.bends = analysis.bends.map((b) => ({
      id: b.id, angle_degrees: round(b.angleDegrees), radius_mm: round(b.innerRadius), length_mm: round(b.length), direction: b.direction,
      // the recogniser measures these on the flat; DFM's minimum-flange rule and bend labels read them
      flange_lengths_mm: b.flangeLengths ? point(b.flangeLengths) : null,
      line_mm: [point(b.line[0]), point(b.line[1])],
      ...(b.lineId !== undefined ? { line_id: b.lineId } : {}),
    }));
    base.bend_count = base.bends.length;
    base.holes = analysis.holes.map((h) => ({
      id: h.id,
      shape: h.shape,
      diameter_mm: round(h.diameter),
      face_id: h.faceId,
      center_mm: [round(h.center[0]), round(h.center[1])],
      countersink: h.countersink ? { outer_diameter_mm: round(h.countersink.outerDiameter), angle_degrees: round(h.countersink.angleDegrees) } : null,
      nearest_bend_id: h.nearestBendId,
      distance_to_nearest_edge_mm: round(h.distanceToNearestEdge),
      distance_to_nearest_bend_mm: h.distanceToNearestBend === null ? null : round(h.distanceToNearestBend),
    }));
    base.hole_count = base.holes.length;
    base.flat_pattern = { k_factor: round(f.kFactor), length_mm: round(f.length), width_mm: round(f.width), area_mm2: round(f.area), cut_length_mm: round(f.cutLength), pierce_count: f.pierceCount };
    base.flat_pattern_dimensions = { length_mm: round(f.length), width_mm: round(f.width), height_mm: round(analysis.thickness) };
    base.cut_length_mm = round(f.cutLength);
    // what the nester places (docs/nesting.md "Part outlines"), drawn only when asked: the file
    // writers and library callers never read it; never in a served design
    if (keepOutline) base._flat_outline = flatOutline(f);
  } else if (analysis.kind === 'tube') {
    base.detected_thickness_mm = round(analysis.wall);
    base.cut_length_mm = round(analysis.cutLength);
    base.tube = {
      profile: analysis.profile,
      outer_diameter_mm: analysis.outerDiameter === null ? null : round(analysis.outerDiameter),
      outer_width_mm: analysis.outerWidth === null ? null : round(analysis.outerWidth),
      outer_height_mm: analysis.outerHeight === null ? null : round(analysis.outerHeight),
      wall_thickness_mm: round(analysis.wall),
      corner_radius_mm: analysis.cornerRadius === null ? null : round(analysis.cornerRadius),
      length_mm: round(analysis.length),
      cut_length_mm: round(analysis.cutLength),
    };
    // A tube's "flat frame" is its unrolled outer wall: x along the axis, s around the perimeter.
    const tubeLength = analysis.length, perimeter = unrolledPerimeter(analysis);
    // holes, slots and cut-outs (windows) through the wall; a cut-out's size is the narrow side of its
    // box on the unrolled wall, as a sheet's 'other' hole is the narrow side of its enclosing rectangle
    base.holes = analysis.features
      .filter(isWallHole)
      .map((t) => ({ t, box: t.kind === 'cutout' ? outlineExtent(t.outline, perimeter) : null }))
      .map(({ t, box }) => {
        const size = t.kind === 'hole' ? t.diameter! : t.kind === 'slot' ? t.width! : Math.min(box!.x, box!.s);
        const x = t.unrolled?.[0] ?? t.x ?? 0;
        const alongAxis = t.kind === 'slot' && t.length !== undefined ? t.length : box ? box.x : size;
        return {
          id: t.id,
          shape: t.kind === 'hole' ? ('round' as const) : t.kind === 'slot' ? ('slot' as const) : ('other' as const),
          diameter_mm: round(size),
          face_id: t.faceIds?.[0] ?? -1,
          center_mm: [round(x), round(t.unrolled?.[1] ?? 0)] as [number, number],
          countersink: null,
          nearest_bend_id: null,
          // to the nearer tube end (the only cut edge a wall hole can be near), where that end really is (mitres)
          distance_to_nearest_edge_mm: round(distanceToEnds(t, analysis.features, perimeter) ?? Math.max(0, Math.min(x, tubeLength - x) - alongAxis / 2)),
          distance_to_nearest_bend_mm: null,
        };
      });
    base.hole_count = base.holes.length;
  }
  if (analysis.kind !== 'refused') base.blind_features = (analysis.blindFeatures ?? []).map((b) => ({
    id: b.id, kind: b.kind, center_mm: [round(b.flatCenter[0]), round(b.flatCenter[1])], position_mm: [round(b.position[0]), round(b.position[1]), round(b.position[2])],
    size_mm: round(b.size), length_mm: b.length === null ? null : round(b.length), depth_mm: round(b.depth), side: b.side, hole_id: b.holeId, face_ids: b.faceIds,
  }));
  return { part: base, frame };
}

/** Most common process among the unique parts; sheet metal on a tie. */
function designProcess(parts: Part[]): SuggestedProcess | null {
  if (parts.length === 0) return null;
  const tubes = parts.filter((p) => p.suggested_process === 'tube_laser').length;
  return tubes > parts.length - tubes ? 'tube_laser' : 'sheet_metal';
}

function designDimensions(solids: Solid[], parts: AnalyzedPart[]): Dimensions | null {
  if (solids.length === 0) return null;
  if (solids.length === 1 && parts.length === 1) return parts[0].part.formed_dimensions;
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (const s of solids) for (let k = 0; k < 3; k++) { min[k] = Math.min(min[k], s.bbox.min[k]); max[k] = Math.max(max[k], s.bbox.max[k]); }
  const e = [0, 1, 2].map((k) => max[k] - min[k]).sort((a, b) => b - a);
  return roundDims({ length_mm: e[0], width_mm: e[1], height_mm: e[2] });
}

/** Everything the file writers need: the design plus, per unique part, its solid, analysis and instances. */
export async function analyzeModel(bytes: Uint8Array, opts: AnalyzeOptions = {}): Promise<AnalyzedModel> {
  checkOptions(opts);
  if (!(bytes instanceof Uint8Array)) throw new EngineError('invalid_step', 'the input is not a byte array');
  const fileHash = hex(bytes);
  const { solids: imported, origins, accuracyMm } = await importStepDetailed(bytes);
  const solids = buildSolids(imported, { accuracyMm });
  const ignored: IgnoredBody[] = [];
  const closed: number[] = [], open: number[] = [];
  solids.forEach((s, i) => {
    if (origins[i].kind === 'open_shell') { open.push(i); return; }
    const size = Math.hypot(...[0, 1, 2].map((k) => s.bbox.max[k] - s.bbox.min[k]));
    if (Math.abs(s.volume) <= ZERO_VOLUME_SHARE * size ** 3) {
      ignored.push({ name: s.name, reason: 'zero_volume', message: `body '${s.name}' is a closed shell enclosing no volume (${s.volume.toExponential(2)} mm3 in a ${size.toFixed(3)} mm box): nothing to make` });
    } else closed.push(i);
  });
  // unique parts among the closed bodies (indices back into solids); each open shell is its own part
  const grouped: InstanceGroup[] = groupInstances(closed.map((i) => solids[i])).map((g) => ({
    representative: closed[g.representative], members: g.members.map((m) => ({ solid: closed[m.solid], transform: m.transform })),
  }));
  const { groups, duplicates } = dropCoincident(grouped, solids);
  for (const d of duplicates) {
    ignored.push({ name: solids[d.solid].name, reason: 'duplicate', message: `body '${solids[d.solid].name}' lies exactly on body '${solids[d.of].name}' (the same shape at the same place): counted once` });
  }
  for (const i of open) groups.push({ representative: i, members: [{ solid: i, transform: { rotation: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], translation: [0, 0, 0] } }] });
  const parts: AnalyzedPart[] = groups.map((g, gi) => {
    const solid = solids[g.representative];
    const id = `prt_${hex(`${fileHash}:part:${gi}`).slice(0, 24)}`;
    const origin = origins[g.representative];
    const analysis = origin.kind === 'open_shell' ? openShellRefusal(solid, origin) : recognize(solid, opts.kFactorByPart?.[id] ?? opts.kFactor);
    const { part, frame } = toPart(id, solid, analysis, g.members.length, origin, opts.flatOutlines === true);
    const instances = g.members.map((m) => ({ id: `pin_${hex(`${fileHash}:instance:${m.solid}`).slice(0, 24)}`, solidIndex: m.solid, transform: m.transform }));
    const boughtIn = origin.kind === 'open_shell' ? null : recognizeBoughtIn(solid, analysis.kind);
    part.bought_in = boughtIn ? { kind: boughtIn.kind, size: boughtIn.size, recognized_by: boughtIn.by, message: boughtIn.message } : null;
    const modelled = analysis.kind === 'sheet' ? modelledSeats(analysis.features ?? [], analysis.frame, analysis.thickness) : [];
    if (modelled.length) part.seated_hardware = modelled;
    return { part, solid, analysis, frame, instances, boughtIn };
  });
  seatHardware(parts.map((p) => ({ ...p, sheet: p.analysis.kind === 'sheet', boughtIn: p.boughtIn ?? null })), solids);
  const partInstances: PartInstance[] = parts
    .flatMap((p) => p.instances.map((inst, k) => ({ solidIndex: inst.solidIndex, v: { id: inst.id, part_id: p.part.id, instance_index: k } })))
    .sort((a, b) => a.solidIndex - b.solidIndex)
    .map((x) => x.v);
  const design: Design = {
    id: `des_${fileHash.slice(0, 24)}`,
    object: 'design',
    status: 'ready',
    status_url: null,
    name: opts.fileName ?? 'model.step',
    created_at: opts.createdAt ?? new Date().toISOString(),
    suggested_process: designProcess(parts.map((p) => p.part)),
    formed_dimensions: designDimensions(solids, parts),
    parts: parts.map((p) => p.part),
    part_instances: partInstances,
    model_url: null,
    image_url: null,
    review_url: null,
    review_link_id: null,
    error: null,
    ignored_bodies: ignored,
  };
  return { design, parts, solids };
}

export async function analyze(bytes: Uint8Array, opts: AnalyzeOptions = {}): Promise<Design> {
  return (await analyzeModel(bytes, opts)).design;
}
