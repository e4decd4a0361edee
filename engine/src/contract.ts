// Public shapes of the API (snake_case JSON; docs/api.md "Objects"). Fields may be added, never
// renamed or dropped: existing clients parse them (docs/api.md "Conventions").
// Units: mm, mm2, cm2 where named, degrees.

export type SuggestedProcess = 'sheet_metal' | 'tube_laser';
export type UnsupportedReason =
  | 'not_constant_thickness'
  | 'not_unfoldable'
  | 'not_a_tube'
  | 'too_large'
  | 'not_sheet_metal'
  | 'unsupported_geometry'
  | 'touching_flanges'
  | 'non_cylindrical_bend'
  /** the body is an open shell (surface model) that does not close even after sewing */
  | 'open_shell';

export interface Dimensions { length_mm: number; width_mm: number; height_mm: number }

export interface BendInfo {
  id: number;
  angle_degrees: number;
  /** inner radius, mm */
  radius_mm: number;
  length_mm: number;
  direction: 'up' | 'down';
  /**
   * (added, DFM) shortest straight length of the flat flange on each side of the bend, measured
   * perpendicular to the bend axis from the end of the bend radius (tangent line) to the flange's
   * free edge or next bend, mm. Optional: DFM checks flange length only when present.
   */
  flange_lengths_mm?: [number, number] | null;
  /** (added, DFM image) the bend's centre line in the flat frame of holes[].center_mm, mm */
  line_mm?: [[number, number], [number, number]] | null;
  /**
   * (added) present when several bend segments lie on one line (tabs bent along one edge, apart: one
   * press stroke may form them all): the id of the line's first segment, shared by every segment of it.
   * Each segment is its own bend with its own length (what the bend-length and flange rules judge).
   */
  line_id?: number;
}

export interface HoleInfo {
  id: number;
  shape: 'round' | 'slot' | 'other';
  diameter_mm: number;
  face_id: number;
  /** centre in the flat frame, mm */
  center_mm: [number, number];
  countersink: { outer_diameter_mm: number; angle_degrees: number } | null;
  nearest_bend_id: number | null;
  distance_to_nearest_edge_mm: number;
  distance_to_nearest_bend_mm: number | null;
}

/**
 * (added) Partial-depth work a laser cannot cut: counterbores and spot faces, blind holes, pockets and
 * recesses, engraving, chamfers or fillets on sheet edges, modelled threads. DFM blocks each one
 * (threads: until a tap is configured on their hole).
 */
export interface BlindFeatureInfo {
  id: number;
  kind: 'counterbore' | 'blind_hole' | 'pocket' | 'engraving' | 'edge_chamfer' | 'edge_fillet' | 'thread';
  /** centre in the flat frame of holes[].center_mm (tubes: [x, s] on the unrolled outer wall), mm */
  center_mm: [number, number];
  /** centre in the part's normalized frame (the frame of formed_dimensions), mm */
  position_mm: [number, number, number];
  /** round features: diameter (a thread's major diameter); pockets and engraving: narrow side; chamfers and fillets: width across the edge */
  size_mm: number;
  /** long side of a pocket or engraving, edge length of a chamfer or fillet; null for round features */
  length_mm: number | null;
  depth_mm: number;
  /** surface it opens on: top|bottom of the flat frame (sheet), outside|inside (tube) */
  side: 'top' | 'bottom' | 'outside' | 'inside';
  /** counterbores and threads: the hole they sit on */
  hole_id: number | null;
  face_ids: number[];
}

export interface FlatPatternInfo {
  k_factor: number;
  length_mm: number;
  width_mm: number;
  area_mm2: number;
  cut_length_mm: number;
  pierce_count: number;
}

export interface TubeInfo {
  profile: 'round' | 'square' | 'rectangular';
  outer_diameter_mm: number | null;
  outer_width_mm: number | null;
  outer_height_mm: number | null;
  wall_thickness_mm: number;
  corner_radius_mm: number | null;
  length_mm: number;
  cut_length_mm: number;
}

export interface Warning { code: string; message: string }

export interface Part {
  id: string;
  name: string;
  suggested_process: SuggestedProcess;
  manufacturable: boolean;
  unsupported_reason: UnsupportedReason | null;
  /** human explanation of unsupported_reason (added field) */
  unsupported_message: string | null;
  instance_count: number;
  formed_dimensions: Dimensions;
  detected_thickness_mm: number | null;
  volume_mm3: number;
  surface_area_cm2: number;
  bend_count: number;
  bends: BendInfo[];
  hole_count: number;
  holes: HoleInfo[];
  /** (added) partial-depth work found on the part; the engine always sets it ([] when none) */
  blind_features?: BlindFeatureInfo[];
  flat_pattern: FlatPatternInfo | null;
  flat_pattern_dimensions: Dimensions | null;
  cut_length_mm: number | null;
  tube: TubeInfo | null;
  warnings: Warning[];
  model_url: string | null;
  flat_pattern_model_url: string | null;
  image_url: string | null;
}

export interface PartInstance { id: string; part_id: string; instance_index: number }

export type DesignStatus = 'queued' | 'processing' | 'ready' | 'failed';

export interface Design {
  id: string;
  object: 'design';
  status: DesignStatus;
  status_url: string | null;
  name: string;
  created_at: string;
  suggested_process: SuggestedProcess | null;
  formed_dimensions: Dimensions | null;
  parts: Part[];
  part_instances: PartInstance[];
  model_url: string | null;
  image_url: string | null;
  /** the website review link a service makes for a ready design; null from the engine */
  review_url: string | null;
  review_link_id: string | null;
  error: { code: string; message: string } | null;
  /**
   * (added) bodies of the file that are not parts, each with why: `zero_volume` (a closed shell
   * enclosing nothing), `duplicate` (the same body twice at the same place). Every body of the file
   * is either a part (open shells included, as parts refused `open_shell`) or listed here.
   */
  ignored_bodies: IgnoredBody[];
}

export interface IgnoredBody { name: string; reason: 'zero_volume' | 'duplicate'; message: string }

/** Engine error codes; the message says precisely what was wrong. */
export type EngineErrorCode =
  | 'invalid_step'
  | 'empty_model'
  | 'unsupported_geometry'
  | 'analysis_timeout'
  | 'analysis_failed'
  | 'queue_full'
  | 'invalid_configuration';

export class EngineError extends Error {
  readonly code: EngineErrorCode;
  constructor(code: EngineErrorCode, message: string) {
    super(message);
    this.name = 'EngineError';
    this.code = code;
  }
  toJSON(): { code: EngineErrorCode; message: string } { return { code: this.code, message: this.message }; }
}
