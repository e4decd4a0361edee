// 3D models of studs, nuts and standoffs, built from their catalog dimensions as solids of
// revolution and written as binary glTF (GLB) with the general writer of engine/src/files.
import type { Hardware } from './types.ts';
import { writeGlb } from '../files/glb.ts';

/** Facets around the axis: 48 keeps a 10 mm head within 0.02 mm of round. */
const REVOLVE_SEGMENTS = 48;

type Pt = [number, number]; // (radius, z), mm

/**
 * Closed profile loops in the (r, z) half-plane, each counter-clockwise seen with r to the right and
 * z up, so that revolved normals point out of the material. The part's sheet-side face is z = 0;
 * the head sits on z in [0, head] above the sheet, the body goes below (negative z).
 */
export function hardwareProfile(item: Hardware): Pt[] {
  const g = item.geometry;
  const rh = g.head_diameter_mm / 2;
  const rb = g.body_diameter_mm / 2;
  const ri = g.bore_diameter_mm / 2;
  const hh = g.head_height_mm;
  const bl = g.body_length_mm;
  if (ri <= 0) {
    // stud: solid head disc + shank
    return [[0, -bl], [rb, -bl], [rb, 0], [rh, 0], [rh, hh], [0, hh]];
  }
  // nut / standoff: annular collar + body with a threaded bore through
  return [[ri, -bl], [rb, -bl], [rb, 0], [rh, 0], [rh, hh], [ri, hh]];
}

interface MeshData { positions: number[]; indices: number[] }

/** Revolves a closed (r, z) loop about z. Bands whose both ends lie on the axis are skipped. */
export function revolve(loop: Pt[], segments = REVOLVE_SEGMENTS): MeshData {
  const positions: number[] = [];
  const indices: number[] = [];
  for (let i = 0; i < loop.length; i++) {
    const [r0, z0] = loop[i];
    const [r1, z1] = loop[(i + 1) % loop.length];
    if (r0 === 0 && r1 === 0) continue;
    if (r0 === r1 && z0 === z1) continue;
    const base = positions.length / 3;
    for (let s = 0; s <= segments; s++) {
      const a = (2 * Math.PI * s) / segments;
      const c = Math.cos(a), sn = Math.sin(a);
      positions.push(r0 * c, r0 * sn, z0, r1 * c, r1 * sn, z1);
    }
    for (let s = 0; s < segments; s++) {
      const a0 = base + 2 * s, b0 = a0 + 1, a1 = a0 + 2, b1 = a0 + 3;
      // skip the zero-area triangle at an end on the axis
      if (r0 !== 0) indices.push(a0, a1, b1);
      if (r1 !== 0) indices.push(a0, b1, b0);
    }
  }
  return { positions, indices };
}

const BODY_COLOR: Record<Hardware['body_material'], [number, number, number]> = {
  steel: [0.78, 0.79, 0.80], // zinc-plated steel
  stainless: [0.70, 0.71, 0.72],
  aluminum: [0.85, 0.86, 0.88],
};

/** GLB of a stud, nut or standoff, built from its catalog dimensions (mm, Z-up revolved, Y-up in glTF). */
export function hardwareModelGlb(item: Hardware): Uint8Array {
  const m = revolve(hardwareProfile(item));
  // glTF is Y-up: rotate the Z-up model -90 degrees about X, (x, y, z) -> (x, z, -y), a proper rotation (winding kept)
  const p = m.positions;
  const yUp = new Float64Array(p.length);
  for (let i = 0; i < p.length; i += 3) { yUp[i] = p[i]; yUp[i + 1] = p[i + 2]; yUp[i + 2] = -p[i + 1]; }
  return writeGlb({ positions: yUp, indices: m.indices }, { name: item.id, color: BODY_COLOR[item.body_material], metallic: 0.9, roughness: 0.35 });
}
