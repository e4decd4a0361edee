// Sheet-metal recognition and exact unfolding (FreeCAD SheetMetal's method: docs/geometry.md "Unfolding").
// Frame of the result: the root (largest planar) face on z = 0 with the material below it (z < 0),
// the flat's smallest enclosing rectangle on [0, length] x [0, width] (long side on X).
// Bend direction: 'up' when the flange rises toward +Z, 'down' when it falls toward -Z.
import type { BlindFeature, BlindFeatureKind, Contour, FlatGeometry, Refusal, RecognitionWarning, Rigid, SheetAnalysis, SheetBend, SheetHole, Solid, Vec2 } from '../geometry/model.ts';
import { enclosingRectangle } from './align.ts';
// flange lengths are measured one way for the engine and DFM (rays from the bend zone to the outline)
import { flangeLengths } from './flange.ts';
import { classifyHole, distanceSamples, findCountersink, holeEdgeDistance, holeTilt, HOLE_TILT_SHIFT_TOLERANCE_MM, nearestBend, roundHoleContour } from './holes.ts';
import { defaultInnerRadius, defaultKFactor } from './kfactor.ts';
import { mergeCollinearBends } from './merge-bends.ts';
import { featuresOutsideSheet, type OutsideFeature } from './slab.ts';
import { raisedPad, type RaisedPad } from './pad.ts';
import { findBlindFeatures, MACHINED_VOLUME_FRACTION, type FoundBlindFeature } from './blind.ts';
import { classifyFeatures, describeFeature, extrusionPreHole, type SheetFeature } from './features.ts';
import { modelledHardware, mountingHoleLoops } from './hardware-holes.ts';
import { flatLoops } from './outline.ts';
import { toolingRadiusAdjustment } from './tooling.ts';
import { flatOverlaps } from './overlap.ts';
import { applyRigid, compose } from './rigid3.ts';
import { applyRigid2, contourArea, contourCentroid, contourLength, transformContour, type Rigid2 } from './segments.ts';
import { measureThickness, sheetPlanes, THICKNESS_TOLERANCE, type PlanePair } from './thickness.ts';
import { findSeams, flatPoint, hasCoaxialFace, oppositeRadius, SHARP_INNER_RADIUS, UnfoldError, unfoldSkin, type Unfolding } from './unfold.ts';
import { hypot2, hypot3 } from '../geometry/vec.ts';

/** A bend with where it lies in the flat: what DFM needs for BendInfo.line_mm and flange_lengths_mm. */
export interface PlacedSheetBend extends SheetBend {
  /** bend centre line in the flat frame (the same as flat.bendLines), mm */
  line: [Vec2, Vec2];
  /** straight flat flange length left and right of the line a->b, from the bend zone's tangent line, mm */
  flangeLengths: [number, number] | null;
  /** segments bent along one line (one press stroke, e.g. tabs apart on one edge): the id of the line's first segment */
  lineId?: number;
}

/** The analysis plus the features left out of the flat (extruded holes, formed features, hardware). */
export type SheetRecognition = (Omit<SheetAnalysis, 'bends'> & {
  bends: PlacedSheetBend[]; features: SheetFeature[]; blindFeatures: BlindFeature[];
  /** the unfolded skin's outline runs along a chamfer, fillet or recess: the other skin may show the through outline */
  partialOutline?: boolean;
}) | Refusal;

export interface SheetOptions { /** explicit K-factor; default from the detected r/t */ kFactor?: number }

/** Thickest plate a sheet line cuts and bends, mm. */
export const MAX_SHEET_THICKNESS = 25;
/** Material this many thicknesses above the sheet over a large region is a moulded or machined body. */
export const OUTSIDE_BODY_T = 2;
/** Volume must equal mid-surface area x thickness within this fraction (countersinks take a little). */
export const VOLUME_TOLERANCE = 0.03;
/** The same with blind features, whose removed volume is measured exactly on their faces. */
export const BLIND_VOLUME_TOLERANCE = 0.01;
const RAD = 180 / Math.PI;

/** Overlaps within this fraction are a tie. */
const OVERLAP_TIE = 1e-6;

/** The root's opposite face over the largest area; a tie goes to the thicker (the thinner part is blind work). */
function dominantPair<P extends { overlap: number; distance: number }>(pairs: P[]): P {
  return pairs.reduce((a, b) => (b.overlap > a.overlap * (1 + OVERLAP_TIE) || (b.overlap > a.overlap * (1 - OVERLAP_TIE) && b.distance > a.distance + THICKNESS_TOLERANCE) ? b : a));
}

function refuse(reason: Refusal['reason'], message: string): Refusal {
  return { kind: 'refused', reason, message, process: 'sheet_metal' };
}

export function recognizeSheet(solid: Solid, options: SheetOptions = {}): SheetRecognition {
  try {
    return recognize(solid, options);
  } catch (err) {
    if (err instanceof UnfoldError) return refuse(err.reason, err.message);
    // an invalid option is the caller's error; anything else is geometry we could not handle: say so, never crash
    if (err instanceof RangeError && /K-factor/.test(err.message)) throw err;
    return refuse('not_unfoldable', `the unfolder could not handle this geometry (${err instanceof Error ? err.message : String(err)})`);
  }
}

function recognize(solid: Solid, options: SheetOptions): SheetRecognition {
  if (options.kFactor !== undefined && !(options.kFactor > 0 && options.kFactor <= 0.5)) {
    throw new RangeError(`K-factor ${options.kFactor} is outside (0, 0.5] (ANSI convention)`);
  }
  const planes = solid.faces.filter((f) => f.surface.kind === 'plane');
  if (planes.length === 0) return refuse('not_sheet_metal', 'the part has no planar face, so it is not a sheet');
  const root = planes.reduce((a, b) => (b.area > a.area ? b : a));
  const measured = measureThickness(solid);
  const rootPairs = (measured?.pairs ?? []).filter((p) => p.a === root.id || p.b === root.id);
  if (!measured || rootPairs.length === 0) {
    const freeform = root.neighbours.find((f) => solid.faces[f].surface.kind === 'other');
    if (freeform !== undefined) {
      return refuse('non_cylindrical_bend', `the largest flat face (face ${root.id}) has no parallel opposite face and joins free-form face ${freeform}: a bend that is not a cylinder (B-spline or torus) cannot be unrolled exactly`);
    }
    return refuse('not_constant_thickness', `the largest flat face (face ${root.id}) has no parallel opposite face, so the part has no constant thickness (tapered or machined)`);
  }
  const thickness = dominantPair(rootPairs).distance;
  if (thickness > MAX_SHEET_THICKNESS) return refuse('not_sheet_metal', `the part is ${thickness.toFixed(2)} mm thick, more than the ${MAX_SHEET_THICKNESS} mm a sheet can be`);
  // a sheet is thin in one direction only: thicker than half the middle extent of its box is a block or bar
  const extents = [0, 1, 2].map((k) => solid.bbox.max[k] - solid.bbox.min[k]).sort((x, y) => x - y);
  if (thickness > extents[1] / 2) {
    return refuse('not_sheet_metal', `the part is ${thickness.toFixed(2)} mm thick within a ${extents.map((x) => x.toFixed(1)).reverse().join(' x ')} mm envelope: a block or bar, not a sheet`);
  }
  const sheetFaces = sheetPlanes({ thickness, pairs: measured.pairs });
  const first = develop(solid, options, root.id, thickness, sheetFaces);
  const machined = first.kind === 'refused' && first.reason === 'not_sheet_metal' ? asMachined(solid, options, root.id, rootPairs, thickness, measured.pairs) : null;
  if (machined) return machined;
  if (first.kind === 'sheet' && first.partialOutline) {
    // the laser cuts the through outline: unfold the skin whose edges are not chamfered or recessed
    const pair = dominantPair(rootPairs);
    const other = develop(solid, options, pair.a === root.id ? pair.b : pair.a, thickness, sheetFaces);
    return other.kind === 'sheet' && !other.partialOutline ? other : first;
  }
  if (first.kind !== 'refused' || first.reason !== 'touching_flanges') return first;
  // Either skin develops the same flat. Mitred closed corners merge a flange's end with the next wall's
  // outer face (one planar face spanning two walls), which overlaps once unfolded from that side; the
  // other skin keeps the walls apart. Try it before refusing.
  const pair = dominantPair(rootPairs);
  const opposite = pair.a === root.id ? pair.b : pair.a;
  let second: SheetRecognition;
  try {
    second = develop(solid, options, opposite, thickness, sheetFaces);
  } catch (err) {
    if (err instanceof UnfoldError) return first;
    throw err;
  }
  return second.kind === 'refused' ? first : second;
}

/**
 * Material standing out of a thin floor may be the full stock of a part milled down to that floor (a
 * tray): read at the thicker distance, the part is that stock with blind work, refused as machined.
 */
function asMachined(solid: Solid, options: SheetOptions, rootId: number, rootPairs: PlanePair[], thickness: number, pairs: PlanePair[]): Refusal | null {
  // the stock's face must cover much of the part (a tray's rim, a block's top), not a few pillar tops
  const stock = MACHINED_STOCK_FRACTION * solid.faces[rootId].area;
  const thicker = rootPairs.filter((p) => p.distance > thickness + THICKNESS_TOLERANCE && p.distance <= MAX_SHEET_THICKNESS && p.overlap >= stock);
  if (thicker.length === 0) return null;
  const t = dominantPair(thicker).distance;
  const again = develop(solid, options, rootId, t, sheetPlanes({ thickness: t, pairs }));
  return again.kind === 'refused' && again.message.startsWith(MACHINED_WORDS) ? again : null;
}

/** Unfold the skin grown from `rootId` and measure the flat, or say why it cannot be made. */
function develop(solid: Solid, options: SheetOptions, rootId: number, thickness: number, sheetFaces: Map<number, Set<number>>): SheetRecognition {
  const warnings: RecognitionWarning[] = [];
  const root = solid.faces[rootId];
  const u = unfoldSkin(solid, root.id, thickness, sheetFaces, options.kFactor);
  // extruded holes, louvers and fused hardware stand out of the sheet: left out of the flat, with a warning
  const classified = classifyFeatures(solid, thickness, featuresOutsideSheet(solid, u));
  const formed: SheetFeature[] = 'features' in classified ? classified.features : [];
  // counterbores, blind holes, pockets, engraving, chamfered edges, threads: found, measured, kept out of the cut
  const found = findBlindFeatures(solid, u, sheetFaces, new Set([...formed.flatMap((f) => f.faces), ...('rejected' in classified ? classified.rejected.faces : [])]));
  const blind = found.filter((b): b is FoundBlindFeature & { kind: BlindFeatureKind } => b.kind !== 'countersink');
  const volumeCheck = checkVolume(solid, u, formed, found);
  const outside = 'rejected' in classified ? classified.rejected : null;
  // material standing well above the sheet's own surface (pillars, walls of a moulded body) says "not a
  // sheet" before any blend between them does; material beyond every footprint is a skin the walk could
  // not reach (a bend it cannot unroll), and a bend without its opposite skin explains what lies beyond it:
  // both judged below
  if (outside && u.unpairedBends.length === 0 && Number.isFinite(outside.worst.distance) && outside.worst.distance > OUTSIDE_BODY_T * thickness) {
    return refuseOutside(outside, thickness);
  }
  // a pad raised on a skin (at most OUTSIDE_BODY_T thicknesses: taller is a body, judged above and
  // below) with nothing recessed behind it is what makes the volume wrong: say that before any blend
  // or bend it carries is blamed
  const pad = outside && volumeCheck && outside.worst.distance <= OUTSIDE_BODY_T * thickness ? raisedPad(solid, u, outside) : null;
  if (outside && pad) return refusePad(outside, pad, thickness);
  const foreign = u.foreignNeighbours.filter((f) => solid.faces[f].surface.kind === 'other');
  if (volumeCheck && foreign.length > 0) {
    const hint = (solid.faces[foreign[0]].surface as { hint?: string }).hint;
    const what = hint === 'sphere' ? 'sphere: a doubly curved corner where bends meet, as on a shelled or drawn box' : hint ?? 'free-form';
    return refuse('non_cylindrical_bend', `face ${foreign[0]} joins the sheet but is not a plane or a cylinder (${what}), so it cannot be unrolled exactly; ${volumeCheck}`);
  }
  if ((outside || volumeCheck) && u.unpairedBends.length > 0) {
    const f = u.unpairedBends[0];
    const c = solid.faces[f].surface as { radius: number; convex: boolean };
    const want = c.convex ? c.radius - thickness : c.radius + thickness;
    return refuse('not_constant_thickness', `bend face ${f} (radius ${c.radius.toFixed(3)} mm) has no coaxial opposite face at radius ${want.toFixed(3)} mm: the bend does not keep the ${thickness.toFixed(3)} mm thickness`);
  }
  if (outside) return refuseOutside(outside, thickness);
  if (volumeCheck) return refuse('not_constant_thickness', volumeCheck);
  const machined = machinedRefusal(solid, blind, thickness);
  if (machined) return machined;
  checkBendPairs(solid, u);
  const seams = findSeams(solid, u);
  if (seams.size > 0) {
    const length = seamLength(solid, seams);
    // the flat follows one skin: a flange whose other side runs on past the seam (it owns the corner)
    // ends at the seam in the flat, so up to t x seam length of corner material is left for the weld
    warnings.push({ code: 'closed_corner', message: `${seams.size / 2} edge(s) (${length.toFixed(1)} mm) where flanges meet are cut apart in the flat (closed corners: weld or leave a seam); a flange running on past the seam is cut at the seam, so up to ${(length * thickness).toFixed(1)} mm2 of corner material (seam length x t) is not in the flat` });
  }

  const warn = { push: (code: string, message: string) => warnings.push({ code, message }) };
  const through = throughLoops(flatLoops(solid, u, seams, warn), blind);
  const partialOutline = through.partialOutline;
  // hardware fused to the sheet with no hole under it: the flat gets the catalog's mounting hole
  for (const f of formed) if (f.kind === 'hardware') f.mount = modelledHardware(f);
  const loops = [...through.loops, ...mountingHoleLoops(solid, u, formed, (f) => through.loops.some((l) => l.sideFaces.some((s) => f.faces.includes(s))))];
  if (loops.length === 0) return refuse('not_unfoldable', 'the unfolded skin has no boundary');
  const outerLoop = loops.reduce((a, b) => (b.area > a.area ? b : a));
  if (!(outerLoop.area > 0)) return refuse('not_unfoldable', 'the unfolded skin has no outer contour');
  const innerLoops = loops.filter((l) => l !== outerLoop);
  const island = innerLoops.find((l) => l.area > 0);
  if (island) return refuse('not_unfoldable', 'the unfolded skin falls apart into separate pieces');

  // countersunk holes are cut at the through diameter; the cone is a secondary operation
  const inner: Contour[] = [];
  const holeInfo = innerLoops.map((l) => {
    const cs = findCountersink(solid, l.sideFaces);
    let contour = roundHoleContour(solid, l.contour, l.sideFaces);
    if (cs?.onSkin && cs.throughRadius !== null) {
      const shape = classifyHole(contour);
      if (shape.shape === 'round') contour = [{ kind: 'arc', center: shape.center, radius: cs.throughRadius, startDegrees: 0, endDegrees: -360, ccw: false }];
    }
    // an extruded hole is cut at its pre-hole: the ring out to the bore becomes the collar
    const extruded = formed.find((f) => f.kind === 'extruded_hole' && f.boreDiameter !== null && l.sideFaces.some((s) => f.faces.includes(s)));
    if (extruded) {
      const shape = classifyHole(contour);
      const d = extrusionPreHole(extruded, thickness) ?? extruded.boreDiameter!;
      if (shape.shape === 'round') contour = [{ kind: 'arc', center: shape.center, radius: d / 2, startDegrees: 0, endDegrees: -360, ccw: false }];
    }
    inner.push(contour);
    return { loop: l, countersink: cs };
  });
  innerLoops.forEach((l, i) => {
    // a counterbore or thread opening on this skin: cut its through hole (tap drill for a thread)
    const f = blind.find((b) => b.throughRadius !== null && (b.mouth === 'A' || b.kind === 'thread') && l.sideFaces.some((s) => b.faces.includes(s)));
    if (!f) return;
    const shape = classifyHole(inner[i]);
    inner[i] = [{ kind: 'arc', center: shape.center, radius: f.throughRadius!, startDegrees: 0, endDegrees: -360, ccw: false }];
  });

  const overlap = flatOverlaps([outerLoop.contour, ...inner]);
  if (overlap?.kind === 'touch' && seams.size === 0) {
    warnings.push({ code: 'closed_corner', message: 'flanges touch in the flat along a closed-corner seam: the cut separates them and the kerf leaves the corner gap (weld or leave a seam)' });
  }
  if (overlap?.kind === 'overlap') {
    const where = modelPointAt(solid, u, overlap.at).map((x) => x.toFixed(2)).join(', ');
    return refuse('touching_flanges', `the flat overlaps itself near (${where}) of the model: ${seams.size > 0
      ? `flanges meet at ${seams.size / 2} closed corner edge(s) and cross once unfolded (add corner reliefs or a gap)`
      : 'material on both sides of a bend would need the same place in the flat (a face reaching past its bend, or flanges crossing once unfolded); add a relief or gap'}`);
  }

  // place the flat on its smallest enclosing rectangle
  const rect = enclosingRectangle(outerLoop.contour);
  const features: Vec2[] = [
    ...u.bends.map((b): Vec2 => [(b.line[0][0] + b.line[1][0]) / 2, (b.line[0][1] + b.line[1][1]) / 2]),
    ...inner.map((c) => contourCentroid(c)),
  ];
  const m = canonicalTurn(rect.motion, rect.length, rect.width, outerLoop.contour, inner, features);
  const outer = transformContour(m, outerLoop.contour);
  const placedInner = inner.map((c) => transformContour(m, c));
  const width = rect.width;
  if (thickness > width / 2) {
    return refuse('not_sheet_metal', `the part is ${thickness.toFixed(2)} mm thick but its flat is only ${width.toFixed(2)} mm wide: a bar or block, not a sheet`);
  }

  // bends: ids by the position of their bend line in the final flat (x, then y)
  const placedBends = mergeCollinearBends(u.bends, outerLoop.contour).map((b) => ({ b, line: [applyRigid2(m, b.line[0]), applyRigid2(m, b.line[1])] as [Vec2, Vec2] }));
  const mid = (l: [Vec2, Vec2]): Vec2 => [(l[0][0] + l[1][0]) / 2, (l[0][1] + l[1][1]) / 2];
  const order = placedBends.slice().sort((p, q) => keyCompare(mid(p.line), mid(q.line)));
  const idOf = new Map<number, number>();
  order.forEach((p, i) => idOf.set(p.b.index, i + 1));
  const zones = placedBends.map((p) => ({ index: idOf.get(p.b.index)!, line: p.line, allowance: p.b.allowance }));
  const flanges = flangeLengths(outer, zones);
  const bends: PlacedSheetBend[] = order.map((p) => ({
    id: idOf.get(p.b.index)!, angleDegrees: p.b.angle * RAD, innerRadius: p.b.innerRadius, length: p.b.length,
    direction: p.b.convex ? 'down' : 'up', sharp: p.b.sharp, line: p.line, flangeLengths: flanges.get(idOf.get(p.b.index)!) ?? null,
    faceIds: p.b.faces.slice().sort((a, b) => a - b), ...(p.b.anchor ? { anchor: p.b.anchor } : {}),
    ...(p.b.lineGroup !== null ? { lineId: Math.min(...order.filter((q) => q.b.lineGroup === p.b.lineGroup).map((q) => idOf.get(q.b.index)!)) } : {}),
  }));
  const sharp = bends.filter((b) => b.sharp);
  if (sharp.length > 0) {
    // a modelled near-zero radius: the design flat follows it, the tooling radius is the production
    // view's adjustment; two planes meeting on both sides: made with the default radius
    // to the micron: a thickness measured as 1.5000000000009 is written 1.5
    const tool = Number(defaultInnerRadius(thickness).toFixed(3));
    const modelled = sharp.filter((b) => b.innerRadius < SHARP_INNER_RADIUS), corners = sharp.length - modelled.length;
    const parts: string[] = [];
    if (modelled.length > 0) {
      const grow = modelled.reduce((sum, b) => sum + toolingRadiusAdjustment(b.angleDegrees / RAD, b.innerRadius, tool), 0);
      parts.push(`${modelled.length} bend(s) are modelled sharp (inner radius ${[...new Set(modelled.map((b) => b.innerRadius.toFixed(3)))].join(', ')} mm): the flat follows the modelled radius (allowance = angle x (r + K t)); made with a tooling radius of ${tool} mm the flat would be ${Math.abs(grow).toFixed(2)} mm ${grow >= 0 ? 'longer' : 'shorter'} (the DFM report gives the material's radius)`);
    }
    if (corners > 0) parts.push(`${corners} bend(s) are modelled as sharp corners on both sides (no radius); unfolded with the default inner radius ${tool} mm, keeping the mold lines`);
    warnings.push({ code: 'sharp_bend', message: parts.join('; ') });
  }
  const bendLines = order.map((p) => ({
    bendId: idOf.get(p.b.index)!, a: p.line[0], b: p.line[1], direction: (p.b.convex ? 'down' : 'up') as 'up' | 'down', angleDegrees: p.b.angle * RAD,
  }));

  const holeOfLoop = new Map<number, SheetHole>();
  let outerSamples: Vec2[] | null = null;
  const holes: SheetHole[] = holeInfo.map((h, i) => {
    const shape = classifyHole(placedInner[i]);
    const samples = distanceSamples(placedInner[i]);
    const near = nearestBend(samples, zones);
    const wall = h.countersink?.wallFace ?? h.loop.sideFaces.find((f) => solid.faces[f].surface.kind === 'cylinder') ?? h.loop.sideFaces[0] ?? -1;
    const hole: SheetHole = {
      id: 0, shape: shape.shape, diameter: shape.diameter, faceId: wall, center: shape.center,
      countersink: h.countersink ? { outerDiameter: h.countersink.outerDiameter, angleDegrees: h.countersink.angleDegrees } : null,
      nearestBendId: near ? near.index : null, distanceToNearestEdge: holeEdgeDistance(samples, outerSamples ??= distanceSamples(outer)),
      distanceToNearestBend: near ? near.distance : null,
      ...(shape.slotLength !== undefined ? { slotLength: shape.slotLength } : {}),
    };
    holeOfLoop.set(i, hole);
    return hole;
  });
  holes.sort((a, b) => keyCompare(a.center, b.center));
  holes.forEach((h, i) => { h.id = i + 1; });
  // a hole drilled off the sheet normal is cut straight at its wall's diameter; say so where the tilt
  // moves it between the skins by more than the cut is accurate to
  const tilted = holeInfo.flatMap((h, i) => {
    const tilt = holeTilt(solid, h.loop.sideFaces, thickness);
    return tilt && tilt.shift > HOLE_TILT_SHIFT_TOLERANCE_MM ? [{ id: holeOfLoop.get(i)!.id, ...tilt }] : [];
  }).sort((a, b) => a.id - b.id);
  if (tilted.length > 0) {
    warnings.push({ code: 'tilted_hole', message: `${tilted.map((t) => `hole ${t.id} is drilled ${t.degrees.toFixed(2)} deg off the sheet normal, so its ends on the two skins are ${t.shift.toFixed(3)} mm apart`).join('; ')}: more than the ${HOLE_TILT_SHIFT_TOLERANCE_MM} mm cutting tolerance; the laser cuts it straight, normal to the sheet, at the wall's diameter` });
  }
  for (const f of formed) {
    const own = new Set(f.faces);
    const at = holeInfo.findIndex((h) => h.loop.sideFaces.some((s) => own.has(s)));
    if (f.mount && at >= 0) f.mount.holeId = holeOfLoop.get(at)!.id;
    warnings.push({ code: f.code, message: describeFeature(f, at >= 0 ? classifyHole(placedInner[at]).diameter : null, thickness) });
  }

  const kFactor = options.kFactor ?? (u.bends.length > 0 ? mostCommon(u.bends.map((b) => b.kFactor)) : defaultKFactor(defaultInnerRadius(thickness), thickness));
  const innerArea = placedInner.reduce((s, c) => s + Math.abs(contourArea(c)), 0);
  const flat: FlatGeometry = {
    kFactor, outer, inner: placedInner, bendLines,
    length: rect.length, width: rect.width,
    area: contourArea(outer) - innerArea,
    cutLength: contourLength(outer) + placedInner.reduce((s, c) => s + contourLength(c), 0),
    pierceCount: placedInner.length,
  };
  const frame = compose(rigid2As3(m), u.maps.get(root.id)!.motion);
  const blindFeatures = placeBlindFeatures(blind, frame, m, (faces) => {
    const i = holeInfo.findIndex((h) => h.loop.sideFaces.some((s) => faces.includes(s)));
    return i >= 0 ? holeOfLoop.get(i)!.id : null;
  });
  return { kind: 'sheet', thickness, frame, bends, holes, flat, warnings, features: formed, blindFeatures, ...(partialOutline ? { partialOutline } : {}) };
}

const MACHINED_WORDS = 'a machined part, not a sheet';
/** A face opposite the largest one over at least this fraction of it is the stock a machined part was milled from. */
const MACHINED_STOCK_FRACTION = 0.25;

/** Blind work this large is not a recess in a sheet: a milled block or stepped plate, said as such. */
function machinedRefusal(solid: Solid, blind: FoundBlindFeature[], thickness: number): Refusal | null {
  const removed = blind.reduce((s, b) => s + Math.max(0, b.volume), 0);
  const fraction = removed / (solid.volume + removed);
  if (!(fraction > MACHINED_VOLUME_FRACTION)) return null;
  const kinds = [...new Set(blind.map((b) => b.kind.replace('_', ' ')))].join(', ');
  const deepest = blind.reduce((a, b) => (b.depth > a.depth ? b : a));
  return refuse('not_sheet_metal', `${MACHINED_WORDS}: ${blind.length} blind feature(s) (${kinds}; the deepest ${deepest.depth.toFixed(2)} mm into the ${thickness.toFixed(2)} mm material) remove ${(fraction * 100).toFixed(0)} % of its material, more than the ${MACHINED_VOLUME_FRACTION * 100} % a sheet part with recesses may lose; a laser only cuts through, so this part needs milling`);
}

/**
 * The loops the laser cuts: the mouth of a blind hole, pocket or engraving on the unfolded skin is no
 * cut (dropped); an outline running along a chamfer, fillet or recess is not the through outline
 * (`partialOutline`: the caller tries the other skin).
 */
function throughLoops<L extends { sideFaces: number[] }>(loops: L[], blind: FoundBlindFeature[]): { loops: L[]; partialOutline: boolean } {
  let partialOutline = false;
  const kept = loops.filter((l) => {
    const f = blind.find((b) => b.mouth === 'A' && l.sideFaces.some((s) => b.faces.includes(s)));
    if (!f) return true;
    if (f.throughFaces.length === 0 && l.sideFaces.every((s) => f.faces.includes(s))) return false;
    if (f.kind !== 'counterbore' && f.kind !== 'thread') partialOutline = true;
    return true;
  });
  return { loops: kept, partialOutline };
}

/** Blind features in the part frame and the placed flat, ids in flat order like holes. */
function placeBlindFeatures(found: Array<FoundBlindFeature & { kind: BlindFeatureKind }>, frame: Rigid, m: Rigid2, holeOf: (faces: number[]) => number | null): BlindFeature[] {
  const out: BlindFeature[] = found.map((f) => ({
    id: 0, kind: f.kind, faceIds: f.faces, position: applyRigid(frame, f.center), flatCenter: applyRigid2(m, f.flat),
    size: f.size, length: f.length, depth: f.depth, side: f.mouth === 'A' ? 'top' : 'bottom',
    holeId: f.kind === 'counterbore' || f.kind === 'thread' ? holeOf(f.faces) : null, volume: f.volume,
  }));
  out.sort((a, b) => keyCompare(a.flatCenter, b.flatCenter) || a.kind.localeCompare(b.kind));
  out.forEach((f, i) => { f.id = i + 1; });
  return out;
}

function refuseOutside(outside: OutsideFeature, thickness: number): Refusal {
  const at = outside.worst.point.map((x) => x.toFixed(2)).join(', ');
  const size = outside.max.map((x, k) => (x - outside.min[k]).toFixed(1)).join(' x ');
  const how = Number.isFinite(outside.worst.distance) ? `stands ${outside.worst.distance.toFixed(2)} mm outside` : 'lies beyond';
  return refuse('not_sheet_metal', `material at (${at}) ${how} the ${thickness.toFixed(3)} mm sheet over a ${size} mm region, too large for a formed feature or inserted hardware: a rib, second wall or block is modelled into the part (machined or moulded work, not sheet metal)`);
}

function refusePad(outside: OutsideFeature, pad: RaisedPad, thickness: number): Refusal {
  const at = outside.center.map((x) => x.toFixed(1)).join(', ');
  const mm = (x: number) => x.toFixed(2);
  return refuse('not_sheet_metal', `a raised pad ${pad.size.map((x) => x.toFixed(1)).join(' x ')} mm around (${at}) stands ${mm(pad.height)} mm proud of the ${thickness.toFixed(3)} mm sheet and nothing behind it is recessed: the part is ${mm(thickness + pad.height)} mm thick there. `
    + `A press forms an emboss by pushing the sheet, so its back sinks as far as its face rises and the thickness stays ${thickness.toFixed(3)} mm; material added on a sheet like this is moulded or machined work, not sheet metal. `
    + 'Remove the pad, or model it as a formed emboss (the sheet pushed out at constant thickness), to have the part made here');
}

/** Total length of the closed-corner seam edges, mm. */
function seamLength(solid: Solid, seams: Set<string>): number {
  let sum = 0;
  for (const e of solid.edges) {
    if (!seams.has(`${e.faces[0]}:${e.faces[1]}`)) continue;
    for (let i = 1; i < e.vertices.length; i++) {
      const a = e.vertices[i - 1] * 3, b = e.vertices[i] * 3;
      sum += hypot3(solid.points[a] - solid.points[b], solid.points[a + 1] - solid.points[b + 1], solid.points[a + 2] - solid.points[b + 2]);
    }
  }
  return sum;
}

/** The skin vertex whose flat image lies nearest a flat point: where a flat problem is on the part. */
function modelPointAt(solid: Solid, u: Unfolding, at: Vec2): [number, number, number] {
  let best: [number, number, number] = [NaN, NaN, NaN], bestD = Infinity;
  for (const f of u.skin) {
    const map = u.maps.get(f)!;
    for (const v of solid.faces[f].vertices) {
      const p: [number, number, number] = [solid.points[v * 3], solid.points[v * 3 + 1], solid.points[v * 3 + 2]];
      const q = flatPoint(map, p);
      const d = hypot2(q[0] - at[0], q[1] - at[1]);
      if (d < bestD) { bestD = d; best = p; }
    }
  }
  return best;
}

/** Material centroid offsets this small from the rectangle's centre are symmetric, mm. */
const SYMMETRY_TOLERANCE = 1e-4;

/**
 * The enclosing rectangle fixes the flat up to a half turn; pick the one that puts the material's
 * centroid toward the origin (x first, then y) so ids and DXFs do not depend on the part's pose.
 */
function canonicalTurn(m: Rigid2, length: number, width: number, outer: Contour, inner: Contour[], features: Vec2[]): Rigid2 {
  const moment = (c: Contour) => { const a = contourArea(c); const p = contourCentroid(c); return [a, a * p[0], a * p[1]]; };
  let [a, mx, my] = moment(transformContour(m, outer));
  for (const c of inner) { const [b, bx, by] = moment(transformContour(m, c)); a += b; mx += bx; my += by; }
  // a symmetric outline falls back on its features (bend lines, holes)
  let fx = 0, fy = 0;
  for (const f of features) { const q = applyRigid2(m, f); fx += q[0] / features.length; fy += q[1] / features.length; }
  const keys = [mx / a - length / 2, my / a - width / 2];
  if (features.length > 0) keys.push(fx - length / 2, fy - width / 2);
  const decisive = keys.find((k) => Math.abs(k) > SYMMETRY_TOLERANCE);
  if (decisive === undefined || decisive < 0) return m;
  // half turn about the rectangle's centre
  return { cos: -m.cos, sin: -m.sin, tx: length - m.tx, ty: width - m.ty };
}

/** Stable geometric order: x then y, rounded to a micron so float noise cannot swap ids. */
function keyCompare(a: Vec2, b: Vec2): number {
  const r = (x: number) => Math.round(x * 1000);
  return r(a[0]) - r(b[0]) || r(a[1]) - r(b[1]);
}

function mostCommon(values: number[]): number {
  const counts = new Map<string, { v: number; n: number }>();
  for (const v of values) { const k = v.toFixed(6); const c = counts.get(k); if (c) c.n++; else counts.set(k, { v, n: 1 }); }
  return [...counts.values()].reduce((a, b) => (b.n > a.n ? b : a)).v;
}

function rigid2As3(m: Rigid2): Rigid {
  return { rotation: [[m.cos, -m.sin, 0], [m.sin, m.cos, 0], [0, 0, 1]], translation: [m.tx, m.ty, 0] };
}

/**
 * Constant thickness: the volume equals the mid-surface area times t. The mid-surface area is the skin
 * area corrected on each bend (cylinder faces scale by (R +/- t/2) / R; a sharp bend adds or removes
 * its corner). Returns why it fails, or null.
 */
function checkVolume(solid: Solid, u: Unfolding, features: SheetFeature[], blind: FoundBlindFeature[]): string | null {
  const t = u.thickness;
  const expected = expectedVolume(solid, u, features, blind);
  const extra = features.reduce((s, f) => s + f.volume, 0);
  const error = Math.abs(solid.volume - expected) / solid.volume;
  // blind work and countersinks are measured exactly on their faces: a part they explain must match
  // closely, not within the slack the volume check leaves for what it does not measure
  if (error <= (blind.some((b) => b.kind !== 'countersink') ? BLIND_VOLUME_TOLERANCE : VOLUME_TOLERANCE)) return null;
  if (extra > 0) return `the volume (${solid.volume.toFixed(1)} mm3) differs by ${(error * 100).toFixed(1)} % from a ${t.toFixed(3)} mm sheet over the unfolded skin plus ${features.length} modelled feature(s) (${expected.toFixed(1)} mm3): the thickness is not constant`;
  return `the volume (${solid.volume.toFixed(1)} mm3) differs by ${(error * 100).toFixed(1)} % from a ${t.toFixed(3)} mm sheet over the unfolded skin (${expected.toFixed(1)} mm3): the thickness is not constant`;
}

/** The volume a sheet of the unfolded skin's mid-surface x t has, with its modelled features and blind work, mm3. */
function expectedVolume(solid: Solid, u: Unfolding, features: SheetFeature[], blind: FoundBlindFeature[]): number {
  const t = u.thickness;
  let mid = 0;
  for (const f of u.skin) {
    const face = solid.faces[f];
    const s = face.surface;
    if (s.kind === 'cylinder') mid += face.area * (s.radius + (s.convex ? -t / 2 : t / 2)) / s.radius;
    else mid += face.area;
  }
  for (const b of u.bends) if (b.sharp && b.faces.length === 0) mid += (b.convex ? -1 : 1) * t * Math.tan(b.angle / 2) * b.length;
  const extra = features.reduce((s, f) => s + f.volume, 0);
  // blind work and countersinks: the skin counts a recess opening on it as empty and one on the far side as full
  const recessed = blind.reduce((s, b) => s + (b.mouth === 'A' ? b.underMouthA : -b.volume), 0);
  return mid * t + extra + recessed;
}

/** Each cylindrical bend of the skin has its coaxial opposite skin at radius R -/+ t (any fitted type). */
function checkBendPairs(solid: Solid, u: Unfolding): void {
  for (const b of u.bends) {
    if (b.faces.length === 0) continue;
    const s = solid.faces[b.faces[0]].surface;
    if (s.kind !== 'cylinder') continue;
    const want = oppositeRadius(s, u.thickness);
    if (want === null || hasCoaxialFace(solid, b.faces[0], s, want)) continue;
    throw new UnfoldError('not_constant_thickness', `bend face ${b.faces[0]} (radius ${s.radius.toFixed(3)} mm) has no coaxial opposite face at radius ${want.toFixed(3)} mm: the bend does not keep the ${u.thickness.toFixed(3)} mm thickness`);
  }
}

