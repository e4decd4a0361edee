// The one table of screw threads the engine knows: ISO metric coarse (ISO 261 / ISO 724 major
// diameters and pitches, ISO 2306 tap drills) and the common unified sizes (ASME B1.1, with the
// usual 75 % thread tap drills). The catalog's taps are built from these rows (catalog/hardware.ts);
// the hardware shape reader takes a bore or shank for the thread whose tap drill or major diameter it
// is (hardware/shape.ts).
export type ThreadStandard = 'metric' | 'unified';

const MM_PER_IN = 25.4;

export interface Thread {
  /** the thread as written on a drawing: "M4x0.7", "8-32 UNC" */
  thread: string;
  /** its nominal size as clients name it: "M4", "#8-32", "1/4-20" */
  size: string;
  standard: ThreadStandard;
  majorMm: number;
  pitchMm: number;
  tapDrillMm: number;
}

/** [thread, standard, major mm, pitch mm, tap drill mm]. Where two threads share a major diameter
 * (10-32 / 10-24, 1/4-20 / 1/4-28), the first listed is the one a plain shank is read as. */
const ROWS: Array<[string, ThreadStandard, number, number, number]> = [
  ['M2x0.4', 'metric', 2, 0.4, 1.6],
  ['M2.5x0.45', 'metric', 2.5, 0.45, 2.05],
  ['M3x0.5', 'metric', 3, 0.5, 2.5],
  ['M4x0.7', 'metric', 4, 0.7, 3.3],
  ['M5x0.8', 'metric', 5, 0.8, 4.2],
  ['M6x1.0', 'metric', 6, 1.0, 5],
  ['M8x1.25', 'metric', 8, 1.25, 6.8],
  ['M10x1.5', 'metric', 10, 1.5, 8.5],
  ['M12x1.75', 'metric', 12, 1.75, 10.2],
  ['M14x2.0', 'metric', 14, 2.0, 12],
  ['M16x2.0', 'metric', 16, 2.0, 14],
  ['M20x2.5', 'metric', 20, 2.5, 17.5],
  ['M24x3.0', 'metric', 24, 3.0, 21],
  ['4-40 UNC', 'unified', 0.112 * MM_PER_IN, MM_PER_IN / 40, 0.089 * MM_PER_IN],
  ['6-32 UNC', 'unified', 0.138 * MM_PER_IN, MM_PER_IN / 32, 0.1065 * MM_PER_IN],
  ['8-32 UNC', 'unified', 0.164 * MM_PER_IN, MM_PER_IN / 32, 0.136 * MM_PER_IN],
  ['10-32 UNF', 'unified', 0.190 * MM_PER_IN, MM_PER_IN / 32, 0.159 * MM_PER_IN],
  ['10-24 UNC', 'unified', 0.190 * MM_PER_IN, MM_PER_IN / 24, 0.1495 * MM_PER_IN],
  ['1/4-20 UNC', 'unified', 0.250 * MM_PER_IN, MM_PER_IN / 20, 0.201 * MM_PER_IN],
  ['1/4-28 UNF', 'unified', 0.250 * MM_PER_IN, MM_PER_IN / 28, 0.213 * MM_PER_IN],
  ['5/16-18 UNC', 'unified', 0.3125 * MM_PER_IN, MM_PER_IN / 18, 0.257 * MM_PER_IN],
];

/**
 * Nominal size of a thread as clients name it: "M4" for M4x0.7, "#8-32" for a numbered unified size,
 * "1/4-20" for a fractional one.
 */
export function threadSize(thread: string, standard: ThreadStandard): string {
  if (standard === 'metric') {
    const m = /^M\d+(?:\.\d+)?/.exec(thread);
    if (!m) throw new Error(`metric thread ${thread} does not start with M<diameter>`);
    return m[0];
  }
  const t = thread.replace(/\s+UN[CFS]?$/, '');
  return /^\d+-\d+$/.test(t) ? `#${t}` : t;
}

export const THREADS: readonly Thread[] = ROWS.map(([thread, standard, majorMm, pitchMm, tapDrillMm]) => ({
  thread, size: threadSize(thread, standard), standard, majorMm, pitchMm, tapDrillMm,
}));

/** The row of a thread as written ("M4x0.7", "8-32 UNC"); throws on a thread the table lacks. */
export function threadNamed(thread: string): Thread {
  const t = THREADS.find((r) => r.thread === thread);
  if (!t) throw new Error(`no thread ${thread} in the thread table`);
  return t;
}
