// Position on the unrolled outer wall: arc length along the outer section's perimeter, from the
// +Y side (y = width/2, z = 0) towards +Z, in [0, perimeter). Lets features be placed on the
// flat layout of the tube the laser cuts (x along the axis, s around it).
import type { Profile } from './profile.ts';
import { hypot2 } from '../geometry/vec.ts';

type Piece = { kind: 'line'; a: [number, number]; b: [number, number] } | { kind: 'arc'; c: [number, number]; r: number; from: number };

/** Outer perimeter pieces of a rectangular profile, counter-clockwise from (w/2, 0). */
function rectPieces(a: number, b: number, r: number): Piece[] {
  const h = Math.PI / 2;
  return [
    { kind: 'line', a: [a, 0], b: [a, b - r] }, { kind: 'arc', c: [a - r, b - r], r, from: 0 },
    { kind: 'line', a: [a - r, b], b: [-a + r, b] }, { kind: 'arc', c: [-a + r, b - r], r, from: h },
    { kind: 'line', a: [-a, b - r], b: [-a, -b + r] }, { kind: 'arc', c: [-a + r, -b + r], r, from: 2 * h },
    { kind: 'line', a: [-a + r, -b], b: [a - r, -b] }, { kind: 'arc', c: [a - r, -b + r], r, from: 3 * h },
    { kind: 'line', a: [a, -b + r], b: [a, 0] },
  ];
}

function pieceLength(p: Piece): number {
  return p.kind === 'line' ? hypot2(p.b[0] - p.a[0], p.b[1] - p.a[1]) : (p.r * Math.PI) / 2;
}

/** Nearest point of a piece to (y, z): distance and arc length from the piece's start. */
function nearest(p: Piece, y: number, z: number): { dist: number; along: number } {
  if (p.kind === 'line') {
    const dx = p.b[0] - p.a[0], dy = p.b[1] - p.a[1], L2 = dx * dx + dy * dy;
    const t = L2 > 0 ? Math.max(0, Math.min(1, ((y - p.a[0]) * dx + (z - p.a[1]) * dy) / L2)) : 0;
    return { dist: hypot2(p.a[0] + t * dx - y, p.a[1] + t * dy - z), along: t * Math.sqrt(L2) };
  }
  let ang = Math.atan2(z - p.c[1], y - p.c[0]) - p.from;
  while (ang < 0) ang += 2 * Math.PI;
  while (ang >= 2 * Math.PI) ang -= 2 * Math.PI;
  const t = ang <= Math.PI / 2 ? ang : ang < (5 * Math.PI) / 4 ? Math.PI / 2 : 0;
  const px = p.c[0] + p.r * Math.cos(p.from + t), py = p.c[1] + p.r * Math.sin(p.from + t);
  return { dist: hypot2(px - y, py - z), along: p.r * t };
}

/** Perimeter of the outer section, mm. */
export function outerPerimeter(p: Profile): number {
  if (p.outerDiameter !== null) return Math.PI * p.outerDiameter;
  return rectPieces(p.outerWidth! / 2, p.outerHeight! / 2, p.cornerRadius ?? 0).reduce((s, q) => s + pieceLength(q), 0);
}

/** Arc-length position of the outer-wall point nearest to (y, z) (section coordinates, centre at 0). */
export function perimeterPosition(p: Profile, y: number, z: number): number {
  if (p.outerDiameter !== null) {
    let a = Math.atan2(z, y);
    if (a < 0) a += 2 * Math.PI;
    return (p.outerDiameter / 2) * a;
  }
  let best = Infinity, pos = 0, start = 0;
  for (const q of rectPieces(p.outerWidth! / 2, p.outerHeight! / 2, p.cornerRadius ?? 0)) {
    const n = nearest(q, y, z);
    if (n.dist < best) { best = n.dist; pos = start + n.along; }
    start += pieceLength(q);
  }
  return pos >= start ? pos - start : pos;
}
