// Internal geometry model shared by import, topology, recognition and unfolding.
// Units: millimetres and degrees throughout. All arrays are float64 unless stated.

export type Vec3 = [number, number, number];
export type Vec2 = [number, number];

/** One solid as occt-import-js tessellated it, already in mm. */
export interface ImportedSolid {
  name: string;
  /** xyz per vertex, mm */
  positions: Float64Array;
  /** 3 vertex indices per triangle */
  indices: Uint32Array;
  /** per B-rep face: inclusive triangle range [first, last] */
  faceRanges: Array<{ first: number; last: number }>;
  /** triangle sides left open by gaps in the export (absent when the shell is closed) */
  openEdges?: number;
}

/** Rigid motion p' = R p + t, R given as rows. */
export interface Rigid { rotation: [Vec3, Vec3, Vec3]; translation: Vec3 }

export interface PlaneSurface { kind: 'plane'; /** unit, pointing out of the solid */ normal: Vec3; /** normal . p, mm */ offset: number }
export interface CylinderSurface {
  kind: 'cylinder';
  /** unit axis direction */
  axis: Vec3;
  /** a point on the axis, mm */
  origin: Vec3;
  radius: number;
  /** angular extent of the face about the axis, degrees (360 for a full cylinder) */
  spanDegrees: number;
  /** true when the outward normal points away from the axis (outer skin of a bend, boss); false for a bore/inner skin */
  convex: boolean;
  /** extent of the face along the axis, measured from origin, mm */
  axialMin: number;
  axialMax: number;
}
export interface ConeSurface { kind: 'cone'; apex: Vec3; /** unit, from apex into the cone */ axis: Vec3; halfAngleDegrees: number; convex: boolean }
export interface OtherSurface { kind: 'other'; /** best-effort reason, e.g. 'torus', 'bspline' */ hint?: string }
export type Surface = PlaneSurface | CylinderSurface | ConeSurface | OtherSurface;

export interface Face {
  id: number;
  surface: Surface;
  /** mm2 */
  area: number;
  /** triangle numbers (index into Solid.triangles / 3) */
  triangles: Uint32Array;
  /** distinct welded vertex ids on the face */
  vertices: Uint32Array;
  /** closed boundary loops, each an ordered list of welded vertex ids (first not repeated at the end) */
  loops: number[][];
  /** ids of faces sharing at least one boundary edge */
  neighbours: number[];
}

/** The polyline shared by two faces, ordered. */
export interface Edge { faces: [number, number]; vertices: number[] }

export interface Solid {
  index: number;
  name: string;
  /** welded vertices, xyz mm */
  points: Float64Array;
  /** welded vertex indices, 3 per triangle, wound outward */
  triangles: Uint32Array;
  faces: Face[];
  edges: Edge[];
  /** mm3, from the closed mesh (positive for an outward-wound solid) */
  volume: number;
  /** mm2 */
  area: number;
  bbox: { min: Vec3; max: Vec3 };
  /** triangle sides left open by gaps in the export (absent when closed) */
  openEdges?: number;
}

// ---- 2D flat geometry -------------------------------------------------------------------------

export type Segment =
  | { kind: 'line'; a: Vec2; b: Vec2 }
  /** circular arc from start to end angle, counter-clockwise when ccw is true; angles in degrees */
  | { kind: 'arc'; center: Vec2; radius: number; startDegrees: number; endDegrees: number; ccw: boolean };

/** A closed loop of segments, each starting where the previous ends. */
export type Contour = Segment[];

export interface BendLine { bendId: number; a: Vec2; b: Vec2; direction: 'up' | 'down'; angleDegrees: number }

export interface FlatGeometry {
  kFactor: number;
  outer: Contour;
  inner: Contour[];
  bendLines: BendLine[];
  /** smallest-area enclosing rectangle, length >= width, mm */
  length: number;
  width: number;
  area: number;
  cutLength: number;
  pierceCount: number;
  /** rigid 2D transform applied so the enclosing rectangle is axis aligned at the origin (for DXF) */
}

export interface RecognitionWarning { code: string; message: string }

export interface SheetBend {
  id: number; angleDegrees: number; innerRadius: number; length: number; direction: 'up' | 'down'; sharp: boolean;
  /** ids of the solid's cylinder faces that form this bend (one skin): images label bends on them */
  faceIds?: number[];
  /** a bend without faces of its own (modelled sharp): the middle of its edge, source frame, mm */
  anchor?: Vec3;
}
export interface SheetHole {
  id: number; shape: 'round' | 'slot' | 'other'; diameter: number; faceId: number; center: Vec2;
  countersink: { outerDiameter: number; angleDegrees: number } | null;
  nearestBendId: number | null; distanceToNearestEdge: number; distanceToNearestBend: number | null;
  /** slots: overall length (end to end), mm */
  slotLength?: number;
}

/** Work a laser cannot do: material removed part-way through the sheet or tube wall. */
export type BlindFeatureKind = 'counterbore' | 'blind_hole' | 'pocket' | 'engraving' | 'edge_chamfer' | 'edge_fillet' | 'thread';
export interface BlindFeature {
  id: number;
  kind: BlindFeatureKind;
  /** B-rep faces of the feature */
  faceIds: number[];
  /** centre in the part's normalized frame, mm */
  position: Vec3;
  /** centre in the flat (sheet: the flat frame of holes; tube: [x, s] on the unrolled outer wall), mm */
  flatCenter: Vec2;
  /** round features: diameter; pockets and engraving: narrow side; chamfers and fillets: width across the edge, mm */
  size: number;
  /** long side of a pocket or engraving, edge length of a chamfer or fillet; null for round features, mm */
  length: number | null;
  /** how far below the surface it opens on, mm */
  depth: number;
  /** the surface it opens on: top = the flat frame's +Z side of a sheet, outside of a tube */
  side: 'top' | 'bottom' | 'outside' | 'inside';
  /** counterbores and threads: the through hole they sit on (a hole id of the part), else null */
  holeId: number | null;
  /** material the feature removes below the surface, mm3 */
  volume: number;
}

export interface SheetAnalysis {
  kind: 'sheet';
  thickness: number;
  /** source -> normalized frame (largest flat face on XY, long side on X) */
  frame: Rigid;
  bends: SheetBend[];
  holes: SheetHole[];
  flat: FlatGeometry;
  warnings: RecognitionWarning[];
  /** partial-depth work found on the part (blocking in DFM unless it is a secondary operation) */
  blindFeatures?: BlindFeature[];
}

export interface TubeFeature {
  id: number;
  /** cutout = any other closed contour through the wall */
  kind: 'hole' | 'slot' | 'notch' | 'end_cut' | 'cutout';
  diameter?: number;
  /** end cut: angle of the cut plane to the square section plane (0 = square cut, 45 = miter); null when not planar */
  angleDegrees?: number | null;
  /** end cuts and notches: which end of the tube (start = x 0 in the normalized frame) */
  end?: 'start' | 'end';
  /** slot width and overall length, mm */
  width?: number; length?: number;
  /** centre of the contour along the tube axis in the normalized frame, mm */
  x?: number;
  /** holes, slots, cut-outs: angular position about the axis in the normalized frame, degrees from
   * +Y towards +Z (90 = top wall of a rectangular tube) */
  aroundDegrees?: number;
  /** holes, slots, cut-outs: centre on the unrolled outer wall, [x along the axis, s around the
   * outer perimeter from the +Y side towards +Z], mm */
  unrolled?: [number, number];
  /** B-rep faces cut by this contour (hole wall, end face...), for labels and DFM */
  faceIds?: number[];
  /** length of this contour traced on the outer surface, mm (a notch shares its end cut's contour) */
  cutLength?: number;
  /** the contour on the unrolled outer wall: polylines of [x, s] points, mm, same axes as
   * `unrolled`, split where the contour crosses the seam s = 0 / perimeter (a hole straddling it
   * gives two pieces; an end cut one piece from s = 0 to the perimeter); a notch: the runs of its
   * end contour along the notch's own cut faces */
  outline?: Vec2[][];
}
export interface TubeAnalysis {
  kind: 'tube';
  profile: 'round' | 'square' | 'rectangular';
  outerDiameter: number | null; outerWidth: number | null; outerHeight: number | null;
  wall: number; cornerRadius: number | null; length: number; cutLength: number;
  /** source -> normalized frame (tube axis on X, starting at x = 0) */
  frame: Rigid;
  features: TubeFeature[];
  warnings: RecognitionWarning[];
  /** partial-depth work in the wall (blocking in DFM) */
  blindFeatures?: BlindFeature[];
}

/** A recogniser that cannot make the part says precisely why; it never guesses. */
export interface Refusal {
  kind: 'refused';
  reason: import('../contract.ts').UnsupportedReason;
  message: string;
  /** the process it would be if it could be made */
  process: 'sheet_metal' | 'tube_laser';
}
