// Shared by the production-file tests: real import of a STEP file into the engine's Solid, and a
// hand-made flat pattern with known area (lines, true arcs, round and slot holes).
import { readFileSync } from 'node:fs';
import type { Contour, FlatGeometry, Rigid, SheetAnalysis, Solid } from '../src/geometry/model.ts';
import { importStep } from '../src/import/index.ts';
import { buildSolid } from '../src/geometry/topology.ts';

export async function solidsOf(path: string): Promise<{ bytes: Uint8Array; solids: Solid[] }> {
  const bytes = new Uint8Array(readFileSync(path));
  const imported = await importStep(bytes);
  return { bytes, solids: imported.map((s, i) => buildSolid(s, i)) };
}

/** Rotation of `deg` degrees about Z then a shift: a non-trivial normalized frame. */
export function turnedFrame(deg: number, shift: [number, number, number]): Rigid {
  const a = (deg * Math.PI) / 180, c = Math.cos(a), s = Math.sin(a);
  return { rotation: [[c, -s, 0], [s, c, 0], [0, 0, 1]], translation: shift };
}

export const PLATE = { length: 120, width: 60, cornerRadius: 5, hole: { center: [30, 30] as [number, number], radius: 4 }, slot: { a: [70, 30] as [number, number], b: [90, 30] as [number, number], radius: 3 } };

/** Counter-clockwise L x W rectangle with corner radius r at the origin, mm: the outline most flat tests need. */
export function roundedRectangle(L: number, W: number, r: number): Contour {
  return [
    { kind: 'line', a: [r, 0], b: [L - r, 0] },
    { kind: 'arc', center: [L - r, r], radius: r, startDegrees: -90, endDegrees: 0, ccw: true },
    { kind: 'line', a: [L, r], b: [L, W - r] },
    { kind: 'arc', center: [L - r, W - r], radius: r, startDegrees: 0, endDegrees: 90, ccw: true },
    { kind: 'line', a: [L - r, W], b: [r, W] },
    { kind: 'arc', center: [r, W - r], radius: r, startDegrees: 90, endDegrees: 180, ccw: true },
    { kind: 'line', a: [0, W - r], b: [0, r] },
    { kind: 'arc', center: [r, r], radius: r, startDegrees: 180, endDegrees: 270, ccw: true },
  ];
}

/** 120 x 60 plate with 5 mm rounded corners, a 8 mm hole and a 6 x 26 mm slot; area known exactly. */
export function plateFlat(): { flat: FlatGeometry; area: number } {
  const L = PLATE.length, W = PLATE.width, r = PLATE.cornerRadius;
  const outer = roundedRectangle(L, W, r);
  const h = PLATE.hole;
  const hole: Contour = [{ kind: 'arc', center: h.center, radius: h.radius, startDegrees: 0, endDegrees: 360, ccw: true }];
  const sl = PLATE.slot;
  // a clockwise inner contour, as some unfolders emit them
  const slot: Contour = [
    { kind: 'line', a: [sl.a[0], sl.a[1] + sl.radius], b: [sl.b[0], sl.b[1] + sl.radius] },
    { kind: 'arc', center: sl.b, radius: sl.radius, startDegrees: 90, endDegrees: -90, ccw: false },
    { kind: 'line', a: [sl.b[0], sl.b[1] - sl.radius], b: [sl.a[0], sl.a[1] - sl.radius] },
    { kind: 'arc', center: sl.a, radius: sl.radius, startDegrees: 270, endDegrees: 90, ccw: false },
  ];
  const area = L * W - (4 - Math.PI) * r * r - Math.PI * h.radius ** 2 - (Math.PI * sl.radius ** 2 + 2 * sl.radius * (sl.b[0] - sl.a[0]));
  const flat: FlatGeometry = {
    kFactor: 0.44, outer, inner: [hole, slot],
    bendLines: [{ bendId: 1, a: [60, 0], b: [60, 60], direction: 'up', angleDegrees: 90 }],
    length: L, width: W, area, cutLength: 0, pierceCount: 2,
  };
  return { flat, area };
}

export function plateAnalysis(frame: Rigid, thickness: number): SheetAnalysis {
  const { flat } = plateFlat();
  return {
    kind: 'sheet', thickness, frame, flat, warnings: [],
    bends: [{ id: 1, angleDegrees: 90, innerRadius: 2, length: 60, direction: 'up', sharp: false }],
    holes: [
      { id: 1, shape: 'round', diameter: 8, faceId: -1, center: PLATE.hole.center, countersink: null, nearestBendId: 1, distanceToNearestEdge: 26, distanceToNearestBend: 26 },
      { id: 2, shape: 'slot', diameter: 6, faceId: -1, center: [80, 30], countersink: null, nearestBendId: 1, distanceToNearestEdge: 27, distanceToNearestBend: 7 },
    ],
  };
}
