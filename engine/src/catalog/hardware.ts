// Taps, self-clinching studs, nuts and standoffs, and the standard countersinks.
// Self-clinching figures (mounting hole, minimum sheet, minimum hole-centre-to-edge) are those of the
// FH / CLS / SO / BSO tables (docs/dfm-rules.md "Where the self-clinching figures come from" says where
// each was seen, and which were not).
import type { CountersinkSize, HardwareGeometry, MaterialType, Nut, Standoff, Stud, Tap, ThreadStandard } from './types.ts';
import { BLIND_STANDOFFS, NUTS, STANDOFFS, STUDS, type StandoffRow } from '../hardware/press-in-rows.ts';
import { threadNamed, threadSize } from '../hardware/threads.ts';

const MM_PER_IN = 25.4;
const r3 = (x: number): number => Number(x.toFixed(3));

const SOFT_SHEET: MaterialType[] = ['mild_steel', 'galvanized_steel', 'aluminum_5052', 'aluminum_6061', 'copper', 'brass'];
const ALL_SHEET: MaterialType[] = [...SOFT_SHEET, 'stainless_304', 'stainless_316'];

/** A tap needs this many full threads of engagement... */
const TAP_MIN_THREADS = 3;
/** ...and never less than 0.060" of stock (thin sheet strips threads; published shop floor is 1/8"). */
const TAP_MIN_THICKNESS_MM = 1.52;
/** The modelled hole may be drawn at tap-drill size or at the thread's major diameter (cosmetic thread), +- this. */
const TAP_HOLE_TOLERANCE_MM = 0.1;
/** Tapped hole centre to edge: at least one major diameter. */
const TAP_EDGE_DISTANCE_DIAMETERS = 1;
/** Press-fit holes may be up to this much over the published mounting hole (laser kerf variation), mm. */
const PRESS_FIT_HOLE_TOLERANCE_MM = 0.08;

/** [id suffix, thread (a row of hardware/threads.ts), price cents] */
const TAPS: Array<[string, string, number]> = [
  ['m2_5x0_45', 'M2.5x0.45', 150],
  ['m3x0_5', 'M3x0.5', 150],
  ['m4x0_7', 'M4x0.7', 175],
  ['m5x0_8', 'M5x0.8', 175],
  ['m6x1_0', 'M6x1.0', 200],
  ['m8x1_25', 'M8x1.25', 250],
  ['m10x1_5', 'M10x1.5', 300],
  ['4_40', '4-40 UNC', 150],
  ['6_32', '6-32 UNC', 150],
  ['8_32', '8-32 UNC', 175],
  ['10_24', '10-24 UNC', 175],
  ['10_32', '10-32 UNF', 175],
  ['1_4_20', '1/4-20 UNC', 200],
  ['1_4_28', '1/4-28 UNF', 200],
  ['5_16_18', '5/16-18 UNC', 250],
];

export function buildTaps(): Tap[] {
  return TAPS.map(([suffix, name, price]): Tap => {
    const { thread, size, standard, majorMm: major, pitchMm: pitch, tapDrillMm: drill } = threadNamed(name);
    return {
    id: `tap_${suffix}`,
    object: 'tap',
    name: `${thread} tapped hole`,
    size,
    thread_standard: standard,
    // the hole the part is cut with: the tap drill (a hole modelled at the major diameter is cut at it)
    hole_diameter_mm: r3(drill),
    standard,
    thread,
    major_diameter_mm: r3(major),
    pitch_mm: r3(pitch),
    tap_drill_mm: r3(drill),
    hole_diameter_min_mm: r3(drill - TAP_HOLE_TOLERANCE_MM),
    hole_diameter_max_mm: r3(major + TAP_HOLE_TOLERANCE_MM),
    min_thickness_mm: r3(Math.max(TAP_MIN_THREADS * pitch, TAP_MIN_THICKNESS_MM)),
    min_center_to_edge_mm: r3(TAP_EDGE_DISTANCE_DIAMETERS * major),
    compatible_material_types: ALL_SHEET,
    unit_price_cents: price,
    available: true,
    };
  });
}

/** Steel fasteners are harder than mild steel and aluminium but not than stainless: stainless sheet needs the
 *  hardened 400-series stainless variants (published rule). */
const VARIANTS = [
  { suffix: '', body: 'steel' as const, compat: SOFT_SHEET, priceAdd: 0 },
  { suffix: 's', body: 'stainless' as const, compat: ALL_SHEET, priceAdd: 20 },
];


const lengthId = (mm: number, standard: ThreadStandard): string =>
  standard === 'metric' ? `${mm}` : `${(mm / MM_PER_IN).toFixed(3).replace('.', '_')}in`;
const lengthText = (mm: number, standard: ThreadStandard): string =>
  standard === 'metric' ? `${mm} mm` : `${Number((mm / MM_PER_IN).toFixed(3))}"`;

export function buildStuds(): Stud[] {
  const out: Stud[] = [];
  for (const [tid, thread, standard, hole, minSheet, edge, headD, headH, bodyD, lengths, price] of STUDS) {
    for (const v of VARIANTS) {
      for (const len of lengths) {
        const series = `FH${v.suffix.toUpperCase()}`;
        const geometry: HardwareGeometry = { head_diameter_mm: headD, head_height_mm: headH, body_diameter_mm: bodyD, body_length_mm: r3(len), bore_diameter_mm: 0 };
        out.push({
          id: `std_${series.toLowerCase()}_${tid}_${lengthId(len, standard)}`,
          object: 'stud', name: `${series} flush-head stud ${thread} x ${lengthText(len, standard)} (${v.body})`,
          size: threadSize(thread, standard), thread_standard: standard, hole_diameter_mm: r3(hole),
          thread, standard, series, body_material: v.body,
          mounting_hole_mm: r3(hole), mounting_hole_tolerance_mm: PRESS_FIT_HOLE_TOLERANCE_MM,
          min_sheet_thickness_mm: r3(minSheet), min_center_to_edge_mm: r3(edge),
          compatible_material_types: v.compat, unit_price_cents: price + v.priceAdd, install_price_cents: 45,
          geometry, available: true, length_mm: r3(len),
        });
      }
    }
  }
  return out;
}

const THREAD_BORE: Record<string, number> = { m3: 2.5, m4: 3.3, m5: 4.2, m6: 5.0, m8: 6.8, '4_40': 2.26, '6_32': 2.71, '8_32': 3.45, '10_32': 4.04, '1_4_20': 5.11 };

export function buildNuts(): Nut[] {
  const out: Nut[] = [];
  for (const [tid, thread, standard, hole, minSheet, edge, collarD, collarH, bodyH, price] of NUTS) {
    for (const v of VARIANTS) {
      const series = `CLS${v.suffix.toUpperCase()}`;
      out.push({
        id: `nut_${series.toLowerCase()}_${tid}`,
        object: 'nut', name: `${series} self-clinching nut ${thread} (${v.body})`,
        size: threadSize(thread, standard), thread_standard: standard, hole_diameter_mm: r3(hole),
        thread, standard, series, body_material: v.body,
        mounting_hole_mm: r3(hole), mounting_hole_tolerance_mm: PRESS_FIT_HOLE_TOLERANCE_MM,
        min_sheet_thickness_mm: r3(minSheet), min_center_to_edge_mm: r3(edge),
        compatible_material_types: v.compat, unit_price_cents: price + v.priceAdd, install_price_cents: 45,
        geometry: { head_diameter_mm: r3(collarD), head_height_mm: r3(collarH), body_diameter_mm: r3(hole), body_length_mm: bodyH, bore_diameter_mm: THREAD_BORE[tid] },
        available: true,
      });
    }
  }
  return out;
}


export function buildStandoffs(): Standoff[] {
  return [...standoffsOf(STANDOFFS, true), ...standoffsOf(BLIND_STANDOFFS, false)];
}

/** Catalog entries of thru-threaded (SO) or blind-threaded (BSO) standoff rows, steel and stainless. */
function standoffsOf(rows: StandoffRow[], thru: boolean): Standoff[] {
  const out: Standoff[] = [];
  for (const [tid, thread, standard, hole, minSheet, edge, bodyD, headD, lengths, price] of rows) {
    for (const v of VARIANTS) {
      for (const len of lengths) {
        const series = `${thru ? '' : 'B'}SO${v.suffix.toUpperCase()}`;
        out.push({
          id: `sto_${series.toLowerCase()}_${tid}_${lengthId(len, standard)}`,
          object: 'standoff', name: `${series} ${thru ? 'thru' : 'blind'}-threaded standoff ${thread} x ${lengthText(len, standard)} (${v.body})`,
          size: threadSize(thread, standard), thread_standard: standard, hole_diameter_mm: r3(hole),
          thread, standard, series, body_material: v.body,
          mounting_hole_mm: r3(hole), mounting_hole_tolerance_mm: PRESS_FIT_HOLE_TOLERANCE_MM,
          min_sheet_thickness_mm: r3(minSheet), min_center_to_edge_mm: r3(edge),
          compatible_material_types: v.compat, unit_price_cents: price + v.priceAdd, install_price_cents: 50,
          geometry: { head_diameter_mm: r3(headD), head_height_mm: 1.0, body_diameter_mm: r3(bodyD), body_length_mm: r3(len), bore_diameter_mm: THREAD_BORE[tid] },
          available: true, length_mm: r3(len), thru,
        });
      }
    }
  }
  return out;
}

/** Published countersink sizes: metric 90 degree, unified 82 degree (hole / outer diameter). */
export function buildCountersinks(): CountersinkSize[] {
  const rows: Array<[string, string, number, number, 82 | 90]> = [
    ['m3', 'M3', 3.4, 6.73, 90], ['m4', 'M4', 4.5, 8.97, 90], ['m5', 'M5', 5.5, 11.2, 90], ['m6', 'M6', 6.6, 13.4, 90],
    ['4', '#4', 0.129 * MM_PER_IN, 0.255 * MM_PER_IN, 82], ['6', '#6', 0.150 * MM_PER_IN, 0.307 * MM_PER_IN, 82],
    ['8', '#8', 0.177 * MM_PER_IN, 0.359 * MM_PER_IN, 82], ['10', '#10', 0.201 * MM_PER_IN, 0.411 * MM_PER_IN, 82],
    ['1_4', '1/4', 0.266 * MM_PER_IN, 0.531 * MM_PER_IN, 82],
  ];
  return rows.map(([id, screw, hole, outer, angle]) => ({
    id: `csk_${id}_${angle}`, name: `${screw} flat head, ${angle} deg`, screw,
    hole_diameter_mm: r3(hole), outer_diameter_mm: r3(outer), angle_degrees: angle,
  }));
}
