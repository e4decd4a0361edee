// The published figures of the self-clinching hardware the shop installs (PEM FH studs, CLS nuts, SO
// standoffs): mounting hole, minimum sheet, minimum hole-centre-to-edge, head and body. The hardware
// catalog (catalog/hardware.ts) is built from these rows; the sheet recogniser reads the mounting
// hole here to cut it under hardware modelled fused to a sheet (sheet/hardware-holes.ts).
type ThreadStandard = 'metric' | 'unified';

const MM_PER_IN = 25.4;

/** [id thread, thread, standard, mounting hole mm, min sheet mm, min centre-to-edge mm, head dia mm, head h mm, body dia mm, lengths mm, price] */
export type StudRow = [string, string, ThreadStandard, number, number, number, number, number, number, number[], number];
export const STUDS: StudRow[] = [
  ['m3', 'M3x0.5', 'metric', 3.0, 1.0, 5.6, 4.6, 1.0, 3.0, [8, 12], 22],
  ['m4', 'M4x0.7', 'metric', 4.0, 1.0, 7.2, 5.9, 1.2, 4.0, [10, 16], 26],
  ['m5', 'M5x0.8', 'metric', 5.0, 1.0, 7.2, 6.9, 1.3, 5.0, [12, 20], 30],
  ['m6', 'M6x1.0', 'metric', 6.0, 1.6, 7.9, 8.2, 1.5, 6.0, [16, 25], 36],
  ['m8', 'M8x1.25', 'metric', 8.0, 2.4, 9.6, 10.4, 1.8, 8.0, [20], 55],
  ['4_40', '4-40', 'unified', 0.111 * MM_PER_IN, 0.040 * MM_PER_IN, 0.219 * MM_PER_IN, 4.3, 1.0, 2.8, [0.375 * MM_PER_IN], 22],
  ['6_32', '6-32', 'unified', 0.137 * MM_PER_IN, 0.040 * MM_PER_IN, 0.250 * MM_PER_IN, 5.1, 1.1, 3.4, [0.5 * MM_PER_IN], 24],
  ['8_32', '8-32', 'unified', 0.163 * MM_PER_IN, 0.040 * MM_PER_IN, 0.281 * MM_PER_IN, 5.9, 1.2, 4.1, [0.5 * MM_PER_IN], 26],
  ['10_32', '10-32', 'unified', 0.189 * MM_PER_IN, 0.040 * MM_PER_IN, 0.281 * MM_PER_IN, 6.7, 1.3, 4.8, [0.625 * MM_PER_IN], 30],
  ['1_4_20', '1/4-20', 'unified', 0.250 * MM_PER_IN, 0.063 * MM_PER_IN, 0.312 * MM_PER_IN, 8.4, 1.5, 6.35, [0.75 * MM_PER_IN], 40],
];

/** [id thread, thread, standard, mounting hole, min sheet, min edge, collar dia, collar h, body h, price] */
export type NutRow = [string, string, ThreadStandard, number, number, number, number, number, number, number];
export const NUTS: NutRow[] = [
  ['m3', 'M3x0.5', 'metric', 4.22, 0.8, 4.8, 6.3, 1.5, 0.8, 18],
  ['m4', 'M4x0.7', 'metric', 5.41, 0.8, 6.9, 7.9, 2.0, 0.8, 20],
  ['m5', 'M5x0.8', 'metric', 6.35, 0.8, 7.1, 8.7, 2.0, 0.8, 22],
  ['m6', 'M6x1.0', 'metric', 8.75, 0.92, 8.6, 11.1, 4.1, 0.9, 28],
  ['m8', 'M8x1.25', 'metric', 10.5, 1.4, 9.7, 12.7, 5.5, 1.4, 40],
  ['4_40', '4-40', 'unified', 4.22, 0.8, 4.8, 6.3, 1.5, 0.8, 18],
  ['6_32', '6-32', 'unified', 4.75, 0.8, 5.6, 7.1, 1.5, 0.8, 19],
  ['8_32', '8-32', 'unified', 5.41, 0.8, 6.9, 7.9, 2.0, 0.8, 20],
  ['10_32', '10-32', 'unified', 6.35, 0.8, 7.1, 8.7, 2.0, 0.8, 22],
  ['1_4_20', '1/4-20', 'unified', 8.75, 0.92, 8.6, 11.1, 4.1, 0.9, 28],
];

/** [id thread, thread, standard, mounting hole, min sheet, min edge, body dia, lengths, price] */
export type StandoffRow = [string, string, ThreadStandard, number, number, number, number, number[], number];
export const STANDOFFS: StandoffRow[] = [
  ['m3', 'M3x0.5', 'metric', 4.22, 1.02, 6.0, 5.4, [6, 10, 15], 35],
  ['m4', 'M4x0.7', 'metric', 5.41, 1.27, 6.9, 7.1, [10, 15], 42],
  ['m5', 'M5x0.8', 'metric', 7.14, 1.27, 7.9, 8.7, [10, 20], 50],
  ['4_40', '4-40', 'unified', 4.22, 1.02, 6.0, 5.4, [0.25 * MM_PER_IN, 0.5 * MM_PER_IN], 35],
  ['6_32', '6-32', 'unified', 4.22, 1.02, 6.0, 5.4, [0.25 * MM_PER_IN, 0.5 * MM_PER_IN], 36],
];

/**
 * Blind-threaded standoffs (PEM BSO): the same mounting hole, minimum sheet and centre-to-edge as the
 * thru-threaded SO of the thread (one table in the maker's bulletin), closed at the far end; lengths
 * are the installed height above the sheet, as the part number's length code gives them (BSO-M3-8: 8 mm).
 * [id thread, thread, standard, mounting hole, min sheet, min edge, body dia, lengths, price]
 */
export const BLIND_STANDOFFS: StandoffRow[] = [
  ['m3', 'M3x0.5', 'metric', 4.22, 1.02, 6.0, 5.4, [6, 8, 10, 12], 38],
  ['m4', 'M4x0.7', 'metric', 5.41, 1.27, 6.9, 7.1, [8, 10, 12], 45],
];

/** Nominal size of a row's thread as the catalog names it: "M4", "#8-32", "1/4-20". */
function rowSize(thread: string, standard: ThreadStandard): string {
  if (standard === 'metric') return /^M\d+(?:\.\d+)?/.exec(thread)?.[0] ?? thread;
  return /^\d+-\d+$/.test(thread) ? `#${thread}` : thread;
}

/** The published mounting hole of a self-clinching nut, stud or standoff of this size, mm; null when none is listed. */
export function mountingHoleOf(kind: 'nut' | 'stud' | 'standoff', size: string): number | null {
  const rows: ReadonlyArray<readonly [string, string, ThreadStandard, number, ...unknown[]]> = kind === 'nut' ? NUTS : kind === 'stud' ? STUDS : STANDOFFS;
  const row = rows.find((r) => rowSize(r[1], r[2]) === size);
  return row ? Number(row[3].toFixed(3)) : null;
}
