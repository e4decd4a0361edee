// Plane geometry for the press-brake cross-section: distances between segments and polygons.
import type { Vec2 } from '../catalog/press-brake.ts';

export type P = readonly [number, number];

function segPointDist(a: P, b: P, p: P): number {
  const dx = b[0] - a[0], dz = b[1] - a[1];
  const L2 = dx * dx + dz * dz;
  let u = L2 === 0 ? 0 : ((p[0] - a[0]) * dx + (p[1] - a[1]) * dz) / L2;
  u = Math.max(0, Math.min(1, u));
  return Math.hypot(a[0] + u * dx - p[0], a[1] + u * dz - p[1]);
}

function cross(o: P, a: P, b: P): number { return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]); }

function segmentsCross(a: P, b: P, c: P, d: P): boolean {
  const d1 = cross(c, d, a), d2 = cross(c, d, b), d3 = cross(a, b, c), d4 = cross(a, b, d);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

/** Shortest distance between segments ab and cd (0 when they cross). */
export function segSegDist(a: P, b: P, c: P, d: P): number {
  if (segmentsCross(a, b, c, d)) return 0;
  return Math.min(segPointDist(a, b, c), segPointDist(a, b, d), segPointDist(c, d, a), segPointDist(c, d, b));
}

export function pointInPolygon(p: P, poly: readonly Vec2[]): boolean {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, zi] = poly[i], [xj, zj] = poly[j];
    if ((zi > p[1]) !== (zj > p[1]) && p[0] < ((xj - xi) * (p[1] - zi)) / (zj - zi) + xi) inside = !inside;
  }
  return inside;
}

/**
 * Shortest distance from segment ab to the region of a closed polygon (0 when the segment enters it).
 */
export function segPolygonDist(a: P, b: P, poly: readonly Vec2[]): number {
  if (pointInPolygon(a, poly) || pointInPolygon(b, poly)) return 0;
  let best = Infinity;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) best = Math.min(best, segSegDist(a, b, poly[j], poly[i]));
  return best;
}

export function translate(poly: readonly Vec2[], dx: number, dz: number): Vec2[] {
  return poly.map(([x, z]) => [x + dx, z + dz] as const);
}

export function bounds(poly: readonly Vec2[]): { minX: number; maxX: number; minZ: number; maxZ: number } {
  let minX = Infinity, maxX = -Infinity, minZ = Infinity, maxZ = -Infinity;
  for (const [x, z] of poly) { minX = Math.min(minX, x); maxX = Math.max(maxX, x); minZ = Math.min(minZ, z); maxZ = Math.max(maxZ, z); }
  return { minX, maxX, minZ, maxZ };
}
