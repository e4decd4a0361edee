// Tolerances of tube recognition. The importer's vertices lie on the exact surfaces (fit residual
// ~1e-8 mm), so these only absorb CAD modelling noise, not tessellation error.

/** Two directions are parallel when the angle between them is below this, degrees. */
export const PARALLEL_TOLERANCE_DEGREES = 0.05;
/** Two fitted surfaces are the same surface (one skin split into several B-rep faces) within this, mm. */
export const SAME_SURFACE_TOLERANCE_MM = 0.005;
/** Inner and outer skin axes must coincide within this to be one tube, mm. */
export const COAXIAL_TOLERANCE_MM = 0.02;
/** Walls of a rectangular tube may differ by this much before the section counts as non-uniform, mm. */
export const WALL_UNIFORMITY_TOLERANCE_MM = 0.02;
/** Width and height within this are a square profile, mm. */
export const SQUARE_TOLERANCE_MM = 0.01;
/** Number of sections cut across the axis to probe the profile. */
export const SECTION_STATIONS = 23;
/** A hollow section is a tube only when its wall is at most this fraction of the smaller outer size. */
export const MAX_WALL_FRACTION = 0.3;
/** Faces parallel to a candidate axis must cover at least this fraction of the area. */
export const MIN_LATERAL_AREA_FRACTION = 0.25;
/** A solid prism is a bar (refused) rather than a plate (left to sheet) when its section's aspect
 * ratio (small/large side) is at least this and it is at least as long as its section is wide. */
export const BAR_MIN_ASPECT = 0.5;
/** Cut edges are refined by midpoint projection onto both surfaces, at most this deep (2^n pieces). */
export const EDGE_REFINEMENT_LEVELS = 8;
/** A cut edge piece shorter than this has no curve left to find, mm. */
export const DEGENERATE_CHORD_MM = 1e-9;
/** A piece's midpoint may move at most this share of the chord onto the exact curve (farther: not found). */
export const MIDPOINT_MOVE_SHARE = 0.3;
/** A cut edge piece whose midpoint is this close to its chord counts as straight, mm. */
export const STRAIGHT_SAGITTA_MM = 1e-5;
/** Faces of one cylinder covering at least this angle together form a closed ring, degrees. */
export const FULL_RING_DEGREES = 359;
/** A face cutting through the wall reaches an end of the part when it comes this close to it, mm. */
export const END_REACH_MM = 0.01;
/** A solid is a shaft when its turned faces (convex cylinders about one axis) are at least this share of its area, */
export const SHAFT_MIN_TURNED_AREA_FRACTION = 0.5;
/** its volume at least this share of the solid of revolution its turned faces describe (a rolled sheet fills a few %), */
export const SHAFT_MIN_FILL = 0.5;
/** and no coaxial bore runs this share of its length or more (that is a thick-walled tube). */
export const SHAFT_BORE_LENGTH_FRACTION = 0.9;
