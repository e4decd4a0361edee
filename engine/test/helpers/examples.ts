// Hand-written, realistic Part / Design objects (contract.ts shapes) for the DFM and pricing tests,
// without a STEP file. Numbers are consistent: a 1.52 mm (0.060") steel bracket
// 120 x 80 flat with two 90 degree bends and four holes.
import type { BendInfo, Design, HoleInfo, Part, TubeInfo } from '../../src/contract.ts';

type PartOverrides = Partial<Omit<Part, 'bends' | 'holes'>> & { bends?: BendInfo[]; holes?: HoleInfo[] };

export function hole(id: number, diameter: number, center: [number, number], edge: number, bend: { id: number; distance: number } | null = null, extra: Partial<HoleInfo> = {}): HoleInfo {
  return {
    id, shape: 'round', diameter_mm: diameter, face_id: 1, center_mm: center, countersink: null,
    nearest_bend_id: bend?.id ?? null, distance_to_nearest_edge_mm: edge, distance_to_nearest_bend_mm: bend?.distance ?? null, ...extra,
  };
}

export function bend(id: number, extra: Partial<BendInfo> = {}): BendInfo {
  return { id, angle_degrees: 90, radius_mm: 1.52, length_mm: 80, direction: 'up', flange_lengths_mm: [20, 70], ...extra };
}

/** A sheet part; defaults describe the 0.060" bracket. */
export function sheetPart(o: PartOverrides = {}): Part {
  const bends = o.bends ?? [bend(1), bend(2, { flange_lengths_mm: [20, 70] })];
  const holes = o.holes ?? [
    hole(1, 6.6, [40, 20], 16.7, { id: 1, distance: 18 }),
    hole(2, 6.6, [80, 20], 16.7, { id: 2, distance: 18 }),
    hole(3, 4.22, [40, 60], 17.9, { id: 1, distance: 18 }),
    hole(4, 3.0, [80, 60], 18.5, { id: 2, distance: 18 }),
  ];
  const t = o.detected_thickness_mm ?? 1.524;
  return {
    id: 'prt_bracket', name: 'bracket', suggested_process: 'sheet_metal', manufacturable: true, unsupported_reason: null, unsupported_message: null,
    instance_count: 1,
    formed_dimensions: { length_mm: 80, width_mm: 80, height_mm: 21.5 },
    detected_thickness_mm: t,
    volume_mm3: 120 * 80 * t,
    surface_area_cm2: (2 * 120 * 80 + 2 * (120 + 80) * t) / 100,
    bend_count: bends.length, bends,
    hole_count: holes.length, holes,
    flat_pattern: { k_factor: 0.38, length_mm: 120, width_mm: 80, area_mm2: 120 * 80 - holes.reduce((a, h) => a + Math.PI * (h.diameter_mm / 2) ** 2, 0), cut_length_mm: 2 * (120 + 80) + holes.reduce((a, h) => a + Math.PI * h.diameter_mm, 0), pierce_count: holes.length },
    flat_pattern_dimensions: { length_mm: 120, width_mm: 80, height_mm: t },
    cut_length_mm: 2 * (120 + 80) + holes.reduce((a, h) => a + Math.PI * h.diameter_mm, 0),
    tube: null, warnings: [], model_url: null, flat_pattern_model_url: null, image_url: null,
    ...o,
  } as Part;
}

/** A 1" x 0.065" 4130 round tube, 500 mm long, two 6 mm cross holes. */
export function tubePart(o: PartOverrides & { tube?: TubeInfo } = {}): Part {
  const tube: TubeInfo = o.tube ?? { profile: 'round', outer_diameter_mm: 25.4, outer_width_mm: null, outer_height_mm: null, wall_thickness_mm: 1.651, corner_radius_mm: null, length_mm: 500, cut_length_mm: 2 * Math.PI * 25.4 + 2 * Math.PI * 6 };
  const holes = o.holes ?? [hole(1, 6, [50, 12.7], 44), hole(2, 6, [450, 12.7], 44)];
  const od = tube.outer_diameter_mm ?? Math.max(tube.outer_width_mm ?? 0, tube.outer_height_mm ?? 0);
  const area = tube.profile === 'round' ? Math.PI / 4 * (od * od - (od - 2 * tube.wall_thickness_mm) ** 2) : 4 * od * tube.wall_thickness_mm;
  return {
    id: 'prt_tube', name: 'tube', suggested_process: 'tube_laser', manufacturable: true, unsupported_reason: null, unsupported_message: null,
    instance_count: 1,
    formed_dimensions: { length_mm: tube.length_mm, width_mm: od, height_mm: od },
    detected_thickness_mm: tube.wall_thickness_mm, volume_mm3: area * tube.length_mm,
    surface_area_cm2: (2 * Math.PI * od / 2 * tube.length_mm * 2) / 100,
    bend_count: 0, bends: [], hole_count: holes.length, holes,
    flat_pattern: null, flat_pattern_dimensions: null, cut_length_mm: tube.cut_length_mm,
    tube, warnings: [], model_url: null, flat_pattern_model_url: null, image_url: null,
    ...o,
  } as Part;
}

/** A ready design of the given parts; each part gets instance_count instances. */
export function designOf(parts: Part[], id = 'des_example'): Design {
  const part_instances = parts.flatMap((p) => Array.from({ length: p.instance_count }, (_, i) => ({ id: `${p.id}_i${i}`, part_id: p.id, instance_index: i })));
  return {
    id, object: 'design', status: 'ready', status_url: null, name: 'example.step', created_at: '2026-11-22T00:00:00.000Z',
    suggested_process: parts[0]?.suggested_process ?? null,
    formed_dimensions: parts[0]?.formed_dimensions ?? null,
    parts, part_instances, model_url: null, image_url: null, review_url: null, review_link_id: null, error: null, ignored_bodies: [],
  };
}
