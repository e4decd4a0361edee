// Default DFM rules as named constants with units and their source. Per-SKU figures (minimum hole,
// flange, bend radius, sheet size, bend length) live on the catalog entry; these are the rules that
// apply across SKUs. docs/dfm-rules.md "DFM rules" compares them with the published figures of real services.

/** Detected thickness matches the material when |t_detected - t_material| <= max(ABS, REL x t). */
const THICKNESS_MATCH_TOL_ABS_MM = 0.05;
const THICKNESS_MATCH_TOL_REL = 0.05;

/** A modelled inner radius below this is a sharp bend: the shop applies the material's default radius. */
export const SHARP_BEND_RADIUS_MM = 0.01;
/** A modelled radius may undercut the material minimum by this much (CAD rounding), mm. */
export const BEND_RADIUS_TOL_MM = 0.01;
/** Largest bend-through angle, degrees (SendCutSend: no acute bends beyond 130 degrees, no hems). */
export const MAX_BEND_ANGLE_DEG = 130;
/** Flat size may exceed the sheet / stock by this much (measurement noise), mm. */
export const SIZE_TOL_MM = 0.05;

/** Smallest part as [length, width] of the flat, length >= width, mm (published 0.375" x 0.25" cut, 1.5" x 0.375" bent). */
export const MIN_PART_CUT_MM: readonly [number, number] = [9.525, 6.35];
export const MIN_PART_BENT_MM: readonly [number, number] = [38.1, 9.525];

/** Hole edge to outer edge >= max(RATIO x t, ABS): 1 t commonly, 0.020" minimum on thin stock (published). */
export const HOLE_EDGE_T_RATIO = 1;
export const HOLE_EDGE_MIN_ABS_MM = 0.508;
/**
 * Hole edge to bend (tangent line) >= 2.5 t + R (Creo default cut-to-bend; Protolabs' "4T rule" is
 * the looser published alternative). Risk a customer may accept: the hole may distort.
 */
export const HOLE_BEND_T_RATIO = 2.5;
/**
 * Countersink to bend >= 4 t + R; countersink to edge >= 4 t (published), both from the countersink
 * rim. Neither is a hard limit (4 t from the rim is conservative for plate): closer to a bend is a
 * risk the customer must accept (the bend may distort it); closer to an edge is a warning that needs
 * no acceptance (the edge may bulge), see ACCEPTABLE_RISKS.
 */
export const COUNTERSINK_BEND_T_RATIO = 4;
export const COUNTERSINK_EDGE_T_RATIO = 4;
/** Countersink angles offered, degrees (82 unified, 90 metric). */
export const COUNTERSINK_ANGLES = [82, 90] as const;
/** A modelled countersink within this of an offered angle is made with that tool, degrees. */
export const COUNTERSINK_ANGLE_TOL_DEG = 1;
/** A countersink's outer diameter must exceed its hole by at least this, mm (else it is not a countersink). */
export const COUNTERSINK_MIN_STEP_MM = 0.2;
/** A standard countersink fits a hole when the hole is within this of its nominal clearance hole, mm. */
export const COUNTERSINK_HOLE_MATCH_MM = 0.15;

/**
 * Self-clinching hardware: centre to bend >= the part's min centre-to-edge + t + R (flat support under
 * the head). Closer, the bend may distort the clinched hole: a hole too close to a bend, accepted as
 * `hole_too_close_to_bend` (RISK_ACCEPTED_AS). The maker's centre-to-edge minimum is where the edge
 * stops bulging: closer is a warning that needs no acceptance, like a countersink near an edge. Both
 * are hard limits only where the head or collar would not lie on flat sheet (HARDWARE_HEAD_ON_SHEET).
 */
export const HARDWARE_BEND_EXTRA_T_RATIO = 1;
/** The head or collar of press-in hardware must lie on flat sheet: its centre at least this many head radii from the edge and from the bend's tangent line (where the sheet starts to curve). Inserted flat before bending, closer than the maker's minimum is a risk, not an impossibility. */
export const HARDWARE_HEAD_ON_SHEET = 1;

/** Tube: hole >= wall (published) and <= the inner size of the face it is cut in. */
export const TUBE_HOLE_MIN_WALL_RATIO = 1;
/** Tube profile match: outer size within max(ABS, REL x size), wall within max(ABS, REL x wall). */
export const TUBE_SIZE_TOL_ABS_MM = 0.25;
export const TUBE_SIZE_TOL_REL = 0.01;
export const TUBE_WALL_TOL_ABS_MM = 0.1;
export const TUBE_WALL_TOL_REL = 0.1;
/** A model's outer corner radius is the stock's within max(ABS, WALLS x wall): EN 10219-2 lets the
 * corner of a cold-formed hollow section lie anywhere in 1.6 to 2.4 x wall, i.e. 2 x wall +- 0.4 x wall. */
export const TUBE_CORNER_RADIUS_TOL_ABS_MM = 0.25;
export const TUBE_CORNER_RADIUS_TOL_WALLS = 0.4;

/**
 * The risks a customer must accept (configuration.accepted_risks) before the part can be made: a
 * finding with one of these codes blocks until accepted. Exactly these two: clients of the live API
 * validate accepted_risks as a two-value enum (docs/api.md "Conventions"), so a third value would
 * break them. A few other findings are accepted through one of them (RISK_ACCEPTED_AS); every other
 * finding is either `blocking` (the design or configuration must change) or a `warning` that is
 * reported and never blocks (e.g. countersink_too_close_to_edge).
 */
export const ACCEPTABLE_RISKS = ['hole_too_close_to_bend', 'countersink_too_close_to_bend'] as const;
export type AcceptableRisk = (typeof ACCEPTABLE_RISKS)[number];

/**
 * Findings accepted through another acceptable risk's value: press-in hardware too close to a bend is
 * a hole too close to a bend with hardware in it (the bend may distort it), so accepting
 * `hole_too_close_to_bend` accepts it too; accepted_risks keeps its two values.
 */
export const RISK_ACCEPTED_AS: Readonly<Record<string, AcceptableRisk>> = { hardware_too_close_to_bend: 'hole_too_close_to_bend' };

/** The accepted_risks value that accepts a finding of this code, or null when it cannot be accepted. */
export function acceptableRiskOf(code: string): AcceptableRisk | null {
  return (ACCEPTABLE_RISKS as readonly string[]).includes(code) ? (code as AcceptableRisk) : RISK_ACCEPTED_AS[code] ?? null;
}

export function isAcceptableRisk(code: string): boolean {
  return acceptableRiskOf(code) !== null;
}

/** Thickness tolerance band of a material, mm. */
export function thicknessTolerance(thicknessMm: number): number {
  return Math.max(THICKNESS_MATCH_TOL_ABS_MM, THICKNESS_MATCH_TOL_REL * thicknessMm);
}

/** Countersink depth below the surface for a cone of the given included angle, mm. */
export function countersinkDepth(outerDiameterMm: number, holeDiameterMm: number, angleDegrees: number): number {
  return (outerDiameterMm - holeDiameterMm) / 2 / Math.tan((angleDegrees * Math.PI) / 360);
}
