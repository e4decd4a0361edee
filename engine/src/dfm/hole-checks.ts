// Rules for one hole: its own size and position, and each operation that may go into it (tap,
// stud, nut, standoff, countersink). Used both to judge a configuration and to list capabilities.
//
// Distance convention (Part.holes): distance_to_nearest_edge_mm and distance_to_nearest_bend_mm
// are measured from the hole's boundary (not its centre) to the outer contour and to the bend's
// tangent line; centre distances below add the radius. Published hardware figures are centre-to-edge.
import type { BendInfo, HoleInfo, Part } from '../contract.ts';
import type { CountersinkSize, Hardware, Material, Tap } from '../catalog/types.ts';
import {
  COUNTERSINK_BEND_T_RATIO, COUNTERSINK_EDGE_T_RATIO, COUNTERSINK_HOLE_MATCH_MM, COUNTERSINK_MIN_STEP_MM,
  HARDWARE_BEND_EXTRA_T_RATIO, HARDWARE_HEAD_ON_SHEET, RISK_ACCEPTED_AS, HOLE_BEND_T_RATIO, HOLE_EDGE_MIN_ABS_MM, HOLE_EDGE_T_RATIO, SHARP_BEND_RADIUS_MM,
  countersinkDepth,
} from './rules.ts';
import type { IssueSource, Severity } from './contract.ts';

/** Where a DFM issue comes from (issue `source`, docs/api.md "DFM reports"); set where the finding is made. */
export type { IssueSource, Severity };
export interface Finding { code: string; message: string; severity: Severity; bend_id?: number | null; details: Record<string, unknown> }

/** What the hole rules need to know about the part and its stock. */
export interface SheetContext {
  part: Part;
  material: Material;
  /** material thickness, mm */
  thickness: number;
}

const mm = (x: number): string => `${Number(x.toFixed(2))} mm`;

function holeCenterToEdge(h: HoleInfo): number { return h.distance_to_nearest_edge_mm + h.diameter_mm / 2; }
function holeCenterToBend(h: HoleInfo): number | null {
  return h.distance_to_nearest_bend_mm === null ? null : h.distance_to_nearest_bend_mm + h.diameter_mm / 2;
}

/** Inner radius the bend is made with: the modelled one, or the material default for a sharp model. */
export function madeRadius(bend: BendInfo, material: Material): number {
  return bend.radius_mm < SHARP_BEND_RADIUS_MM ? material.default_bend_radius_mm : bend.radius_mm;
}

function nearestBend(ctx: SheetContext, h: HoleInfo): BendInfo | null {
  if (h.nearest_bend_id === null) return null;
  return ctx.part.bends.find((b) => b.id === h.nearest_bend_id) ?? null;
}

/** Rules on the hole itself, whatever goes into it. */
export function checkHole(h: HoleInfo, ctx: SheetContext): Finding[] {
  const out: Finding[] = [];
  const t = ctx.thickness;
  const minD = ctx.material.min_hole_diameter_mm;
  if (h.diameter_mm < minD) {
    const what = h.shape === 'slot' ? 'Slot width' : 'Hole diameter';
    out.push({ code: h.shape === 'slot' ? 'slot_too_small' : 'hole_too_small', severity: 'blocking',
      message: `${what} ${mm(h.diameter_mm)} is below the minimum ${mm(minD)} for ${ctx.material.display_thickness} ${ctx.material.material} (50 % of thickness).`,
      details: { diameter_mm: h.diameter_mm, min_diameter_mm: minD } });
  }
  const minEdge = Math.max(HOLE_EDGE_T_RATIO * t, HOLE_EDGE_MIN_ABS_MM);
  if (h.distance_to_nearest_edge_mm < minEdge) {
    out.push({ code: 'hole_too_close_to_edge', severity: 'blocking',
      message: `Hole ${h.id} is ${mm(h.distance_to_nearest_edge_mm)} from the part edge; the minimum is ${mm(minEdge)} (1 x thickness) or the web tears.`,
      details: { distance_mm: h.distance_to_nearest_edge_mm, min_distance_mm: minEdge } });
  }
  const bend = nearestBend(ctx, h);
  if (bend && h.distance_to_nearest_bend_mm !== null) {
    const r = madeRadius(bend, ctx.material);
    const minBend = HOLE_BEND_T_RATIO * t + r;
    if (h.distance_to_nearest_bend_mm < minBend) {
      out.push({ code: 'hole_too_close_to_bend', severity: 'warning', bend_id: bend.id,
        message: `Hole ${h.id} is ${mm(h.distance_to_nearest_bend_mm)} from bend ${bend.id}; below ${mm(minBend)} (2.5 x thickness + inner radius) it may deform when bent. Accept the risk or move the hole.`,
        details: { distance_mm: h.distance_to_nearest_bend_mm, min_distance_mm: minBend } });
    }
  }
  return out;
}

/** Part-level fit of a tap (material and thickness), independent of the hole. */
export function tapPartFit(tap: Tap, ctx: SheetContext): Finding[] {
  const out: Finding[] = [];
  if (!tap.available) out.push({ code: 'option_unavailable', severity: 'blocking', message: `${tap.name} is not available.`, details: { tap_id: tap.id } });
  if (!tap.compatible_material_types.includes(ctx.material.type)) {
    out.push({ code: 'tap_material_incompatible', severity: 'blocking', message: `${tap.thread} cannot be tapped in ${ctx.material.material}.`, details: { tap_id: tap.id, material_type: ctx.material.type } });
  }
  if (ctx.thickness < tap.min_thickness_mm) {
    out.push({ code: 'tap_stock_too_thin', severity: 'blocking',
      message: `${tap.thread} needs at least ${mm(tap.min_thickness_mm)} of stock (3 threads); ${ctx.material.display_thickness} is too thin.`,
      details: { tap_id: tap.id, thickness_mm: ctx.thickness, min_thickness_mm: tap.min_thickness_mm } });
  }
  return out;
}

export function tapHoleFit(tap: Tap, h: HoleInfo): Finding[] {
  const out: Finding[] = [];
  if (h.shape !== 'round' || h.diameter_mm < tap.hole_diameter_min_mm || h.diameter_mm > tap.hole_diameter_max_mm) {
    out.push({ code: 'tap_hole_size_mismatch', severity: 'blocking',
      message: `Hole ${h.id} (${h.shape}, ${mm(h.diameter_mm)}) cannot take ${tap.thread}: model it round at the tap drill ${mm(tap.tap_drill_mm)} (or the major diameter ${mm(tap.major_diameter_mm)}).`,
      details: { tap_id: tap.id, diameter_mm: h.diameter_mm, min_diameter_mm: tap.hole_diameter_min_mm, max_diameter_mm: tap.hole_diameter_max_mm } });
  }
  const c = holeCenterToEdge(h);
  if (c < tap.min_center_to_edge_mm) {
    out.push({ code: 'tap_too_close_to_edge', severity: 'blocking',
      message: `Tapped hole ${h.id} centre is ${mm(c)} from the edge; ${tap.thread} needs ${mm(tap.min_center_to_edge_mm)}.`,
      details: { tap_id: tap.id, center_to_edge_mm: c, min_center_to_edge_mm: tap.min_center_to_edge_mm } });
  }
  return out;
}

/** Part-level fit of self-clinching hardware: material hardness and sheet thickness. */
export function hardwarePartFit(item: Hardware, ctx: SheetContext): Finding[] {
  const out: Finding[] = [];
  if (!item.available) out.push({ code: 'option_unavailable', severity: 'blocking', message: `${item.name} is not available.`, details: { id: item.id } });
  if (!item.compatible_material_types.includes(ctx.material.type)) {
    out.push({ code: 'hardware_material_incompatible', severity: 'blocking',
      message: `${item.name} cannot be installed in ${ctx.material.material}: the sheet is harder than the fastener; use a stainless (${item.series}S) variant.`,
      details: { id: item.id, material_type: ctx.material.type, compatible_material_types: item.compatible_material_types } });
  }
  if (ctx.thickness < item.min_sheet_thickness_mm) {
    out.push({ code: 'hardware_sheet_too_thin', severity: 'blocking',
      message: `${item.name} needs a sheet of at least ${mm(item.min_sheet_thickness_mm)}; ${ctx.material.display_thickness} is too thin.`,
      details: { id: item.id, thickness_mm: ctx.thickness, min_thickness_mm: item.min_sheet_thickness_mm } });
  }
  return out;
}

export function hardwareHoleFit(item: Hardware, h: HoleInfo, ctx: SheetContext): Finding[] {
  const out: Finding[] = [];
  const lo = item.mounting_hole_mm - 0.01;
  const hi = item.mounting_hole_mm + item.mounting_hole_tolerance_mm;
  if (h.shape !== 'round' || h.diameter_mm < lo || h.diameter_mm > hi) {
    out.push({ code: 'hardware_hole_size_mismatch', severity: 'blocking',
      message: `Hole ${h.id} (${h.shape}, ${mm(h.diameter_mm)}) does not fit ${item.name}: it presses into a round ${mm(item.mounting_hole_mm)} hole (+${item.mounting_hole_tolerance_mm} mm).`,
      details: { id: item.id, diameter_mm: h.diameter_mm, mounting_hole_mm: item.mounting_hole_mm } });
  }
  // closer than the maker's minimum the sheet may bulge or the bend distort the hole: risks an
  // estimator quotes; a head or collar off the flat sheet is not (rules.ts HARDWARE_HEAD_ON_SHEET)
  const head = HARDWARE_HEAD_ON_SHEET * item.geometry.head_diameter_mm / 2;
  const c = holeCenterToEdge(h);
  if (c < item.min_center_to_edge_mm) {
    const off = c < head;
    out.push({ code: 'hardware_too_close_to_edge', severity: off ? 'blocking' : 'warning',
      message: off
        ? `Hole ${h.id} centre is ${mm(c)} from the edge; the head of ${item.name} (Ø${mm(item.geometry.head_diameter_mm)}) would overhang it, and it needs ${mm(item.min_center_to_edge_mm)}.`
        : `Hole ${h.id} centre is ${mm(c)} from the edge; below ${mm(item.min_center_to_edge_mm)} (the maker's minimum for ${item.name}) the edge may bulge when it is pressed in; move the hole if the edge must stay straight.`,
      details: { id: item.id, center_to_edge_mm: c, min_center_to_edge_mm: item.min_center_to_edge_mm } });
  }
  const bend = nearestBend(ctx, h);
  const cb = holeCenterToBend(h);
  if (bend && cb !== null) {
    const r = madeRadius(bend, ctx.material);
    const min = item.min_center_to_edge_mm + HARDWARE_BEND_EXTRA_T_RATIO * ctx.thickness + r;
    if (cb < min) {
      const off = cb < head;
      out.push({ code: 'hardware_too_close_to_bend', severity: off ? 'blocking' : 'warning', bend_id: bend.id,
        message: off
          ? `Hole ${h.id} centre is ${mm(cb)} from bend ${bend.id}; the head of ${item.name} (Ø${mm(item.geometry.head_diameter_mm)}) would reach into the bend, and it needs ${mm(min)} (edge distance + thickness + radius) of flat sheet for the press and the clinch.`
          : `Hole ${h.id} centre is ${mm(cb)} from bend ${bend.id}; below ${mm(min)} (edge distance + thickness + radius) the bend may distort the hole of ${item.name}. Accept the risk (accepted_risks: hole_too_close_to_bend) or move the hole.`,
        // the accepted_risks value that accepts it, for clients that offer acceptance by finding
        details: { id: item.id, center_to_bend_mm: cb, min_center_to_bend_mm: min, ...(off ? {} : { accepted_as: RISK_ACCEPTED_AS.hardware_too_close_to_bend }) } });
    }
  }
  return out;
}

/** A countersink of the given outer diameter and angle in hole h. */
export function countersinkFit(outer: number, angle: number, h: HoleInfo, ctx: SheetContext): Finding[] {
  const out: Finding[] = [];
  const t = ctx.thickness;
  if (h.shape !== 'round') {
    out.push({ code: 'countersink_hole_not_round', severity: 'blocking', message: `Hole ${h.id} is a ${h.shape}; only round holes are countersunk.`, details: { shape: h.shape } });
    return out;
  }
  if (outer < h.diameter_mm + COUNTERSINK_MIN_STEP_MM) {
    out.push({ code: 'countersink_invalid_diameter', severity: 'blocking',
      message: `Countersink outer diameter ${mm(outer)} must exceed hole ${h.id} (${mm(h.diameter_mm)}) by at least ${mm(COUNTERSINK_MIN_STEP_MM)}.`,
      details: { outer_diameter_mm: outer, hole_diameter_mm: h.diameter_mm } });
    return out;
  }
  const depth = countersinkDepth(outer, h.diameter_mm, angle);
  if (depth > t) {
    out.push({ code: 'countersink_too_deep', severity: 'blocking',
      message: `A ${angle} deg countersink of ${mm(outer)} in hole ${h.id} is ${mm(depth)} deep, deeper than the ${mm(t)} sheet.`,
      details: { depth_mm: depth, thickness_mm: t, outer_diameter_mm: outer, angle_degrees: angle } });
  }
  const edgeFromRim = holeCenterToEdge(h) - outer / 2;
  const minEdge = COUNTERSINK_EDGE_T_RATIO * t;
  if (edgeFromRim < minEdge) {
    out.push({ code: 'countersink_too_close_to_edge', severity: 'warning',
      message: `Countersink rim of hole ${h.id} is ${mm(edgeFromRim)} from the edge; below ${mm(minEdge)} (4 x thickness) the edge may bulge; move the hole if the edge must stay flat.`,
      details: { distance_mm: edgeFromRim, min_distance_mm: minEdge } });
  }
  const bend = nearestBend(ctx, h);
  const cb = holeCenterToBend(h);
  if (bend && cb !== null) {
    const fromRim = cb - outer / 2;
    const min = COUNTERSINK_BEND_T_RATIO * t + madeRadius(bend, ctx.material);
    if (fromRim < min) {
      out.push({ code: 'countersink_too_close_to_bend', severity: 'warning', bend_id: bend.id,
        message: `Countersink rim of hole ${h.id} is ${mm(fromRim)} from bend ${bend.id}; below ${mm(min)} (4 x thickness + inner radius) it may distort. Accept the risk or move the hole.`,
        details: { distance_mm: fromRim, min_distance_mm: min } });
    }
  }
  return out;
}

/** Standard countersinks whose nominal clearance hole matches hole h. */
export function matchingCountersinks(sizes: CountersinkSize[], h: HoleInfo): CountersinkSize[] {
  return sizes.filter((s) => h.shape === 'round' && Math.abs(s.hole_diameter_mm - h.diameter_mm) <= COUNTERSINK_HOLE_MATCH_MM);
}

export const blocking = (fs: Finding[]): Finding[] => fs.filter((f) => f.severity === 'blocking');
