// The published figures of the self-clinching hardware the shop installs (PEM FH studs, CLS nuts, SO
// standoffs): mounting hole, minimum sheet, minimum hole-centre-to-edge, head and body. The hardware
// catalog (catalog/hardware.ts) is built from these rows; the sheet recogniser reads the mounting
// hole here to cut it under hardware modelled fused to a sheet (sheet/hardware-holes.ts).
type ThreadStandard = 'metric' | 'unified';

const MM_PER_IN = 25.4;

/**
 * Flush-head studs (PEM FH). Mounting hole, minimum sheet, centre-to-edge and head diameter: the FH
 * metric table (docs/dfm-rules.md "Where the self-clinching figures come from"); lengths are the
 * series' length codes (6, 8, 10, 12, 15, 18, 20, 25, 30, 35 mm: no 16).
 * [id thread, thread, standard, mounting hole mm, min sheet mm, min centre-to-edge mm, head dia mm, head h mm, body dia mm, lengths mm, price]
 */
export type StudRow = [string, string, ThreadStandard, number, number, number, number, number, number, number[], number];
export const STUDS: StudRow[] = [
  ['m3', 'M3x0.5', 'metric', 3.0, 1.0, 5.6, 4.6, 1.0, 3.0, [8, 12], 22],
  ['m4', 'M4x0.7', 'metric', 4.0, 1.0, 7.2, 5.9, 1.2, 4.0, [10, 15], 26],
  ['m5', 'M5x0.8', 'metric', 5.0, 1.0, 7.2, 6.5, 1.3, 5.0, [12, 20], 30],
  ['m6', 'M6x1.0', 'metric', 6.0, 1.6, 7.9, 8.2, 1.5, 6.0, [15, 25], 36],
  ['m8', 'M8x1.25', 'metric', 8.0, 2.4, 9.6, 9.6, 1.8, 8.0, [20], 55],
  // unified rows: not checked against a published table (docs/dfm-rules.md says which figures are)
  ['4_40', '4-40', 'unified', 0.111 * MM_PER_IN, 0.040 * MM_PER_IN, 0.219 * MM_PER_IN, 4.3, 1.0, 2.8, [0.375 * MM_PER_IN], 22],
  ['6_32', '6-32', 'unified', 0.137 * MM_PER_IN, 0.040 * MM_PER_IN, 0.250 * MM_PER_IN, 5.1, 1.1, 3.4, [0.5 * MM_PER_IN], 24],
  ['8_32', '8-32', 'unified', 0.163 * MM_PER_IN, 0.040 * MM_PER_IN, 0.281 * MM_PER_IN, 5.9, 1.2, 4.1, [0.5 * MM_PER_IN], 26],
  ['10_32', '10-32', 'unified', 0.189 * MM_PER_IN, 0.040 * MM_PER_IN, 0.281 * MM_PER_IN, 6.7, 1.3, 4.8, [0.625 * MM_PER_IN], 30],
  ['1_4_20', '1/4-20', 'unified', 0.250 * MM_PER_IN, 0.063 * MM_PER_IN, 0.312 * MM_PER_IN, 8.4, 1.5, 6.35, [0.75 * MM_PER_IN], 40],
];

/**
 * Self-clinching nuts (PEM CLS, shank code 0: the thinnest sheet), metric in mm and unified in the
 * inch figures of the table; collar E and height T as published.
 * [id thread, thread, standard, mounting hole, min sheet, min edge, collar dia, collar h, body h, price]
 */
export type NutRow = [string, string, ThreadStandard, number, number, number, number, number, number, number];
export const NUTS: NutRow[] = [
  ['m3', 'M3x0.5', 'metric', 4.22, 0.8, 4.8, 6.35, 1.5, 0.8, 18],
  ['m4', 'M4x0.7', 'metric', 5.41, 0.8, 6.9, 7.87, 2.0, 0.8, 20],
  ['m5', 'M5x0.8', 'metric', 6.35, 0.8, 7.1, 8.64, 2.0, 0.8, 22],
  ['m6', 'M6x1.0', 'metric', 8.75, 0.92, 8.6, 11.18, 4.08, 0.9, 28],
  ['m8', 'M8x1.25', 'metric', 10.5, 1.4, 9.7, 12.7, 5.47, 1.4, 40],
  ['4_40', '4-40', 'unified', 0.166 * MM_PER_IN, 0.030 * MM_PER_IN, 0.190 * MM_PER_IN, 0.250 * MM_PER_IN, 0.070 * MM_PER_IN, 0.8, 18],
  ['6_32', '6-32', 'unified', 0.1875 * MM_PER_IN, 0.030 * MM_PER_IN, 0.220 * MM_PER_IN, 0.280 * MM_PER_IN, 0.070 * MM_PER_IN, 0.8, 19],
  ['8_32', '8-32', 'unified', 0.213 * MM_PER_IN, 0.030 * MM_PER_IN, 0.270 * MM_PER_IN, 0.310 * MM_PER_IN, 0.090 * MM_PER_IN, 0.8, 20],
  ['10_32', '10-32', 'unified', 0.250 * MM_PER_IN, 0.030 * MM_PER_IN, 0.280 * MM_PER_IN, 0.340 * MM_PER_IN, 0.090 * MM_PER_IN, 0.8, 22],
  ['1_4_20', '1/4-20', 'unified', 0.344 * MM_PER_IN, 0.047 * MM_PER_IN, 0.340 * MM_PER_IN, 0.440 * MM_PER_IN, 0.170 * MM_PER_IN, 1.2, 28],
];

/**
 * Thru-threaded standoffs (PEM SO): mounting hole, minimum sheet, centre-to-edge, the barrel C that
 * passes the hole and the hex head H (across flats) pressed flush into the sheet. Lengths are the
 * series' length codes (metric 3, 4, 6, 8 ... 18 mm for M3, to 25 for M4/M5: even numbers, no 15).
 * [id thread, thread, standard, mounting hole, min sheet, min edge, barrel dia C, hex head H, lengths, price]
 */
export type StandoffRow = [string, string, ThreadStandard, number, number, number, number, number, number[], number];
export const STANDOFFS: StandoffRow[] = [
  ['m3', 'M3x0.5', 'metric', 4.22, 1.02, 6.0, 4.2, 4.8, [6, 10, 16], 35],
  ['m4', 'M4x0.7', 'metric', 7.14, 1.27, 8.0, 7.12, 7.9, [10, 16], 42],
  ['m5', 'M5x0.8', 'metric', 7.14, 1.27, 8.0, 7.12, 7.9, [10, 20], 50],
  ['4_40', '4-40', 'unified', 0.166 * MM_PER_IN, 0.040 * MM_PER_IN, 0.230 * MM_PER_IN, 0.165 * MM_PER_IN, 0.187 * MM_PER_IN, [0.25 * MM_PER_IN, 0.5 * MM_PER_IN], 35],
  ['6_32', '6-32', 'unified', 0.213 * MM_PER_IN, 0.040 * MM_PER_IN, 0.270 * MM_PER_IN, 0.212 * MM_PER_IN, 0.250 * MM_PER_IN, [0.25 * MM_PER_IN, 0.5 * MM_PER_IN], 36],
];

/**
 * Blind-threaded standoffs (PEM BSO): the body of the thru-threaded SO of the same thread code
 * (barrel, hex, mounting hole, minimum sheet and centre-to-edge), closed at the far end; lengths are
 * the installed height above the sheet, as the part number's length code gives them (BSO-M3-8: 8 mm).
 * docs/dfm-rules.md "Where the self-clinching figures come from" says which figures a published page
 * shows and which rest on the SO table.
 * [id thread, thread, standard, mounting hole, min sheet, min edge, barrel dia C, hex head H, lengths, price]
 */
export const BLIND_STANDOFFS: StandoffRow[] = [
  ['m3', 'M3x0.5', 'metric', 4.22, 1.02, 6.0, 4.2, 4.8, [6, 8, 10, 12], 38],
  ['m4', 'M4x0.7', 'metric', 7.14, 1.27, 8.0, 7.12, 7.9, [8, 10, 12], 45],
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
