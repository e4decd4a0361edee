// 3D models of studs, nuts and standoffs, built from their catalog dimensions as solids of
// revolution and written as binary glTF (GLB). A minimal writer lives here because the general GLB
// writer of engine/src/files had not landed when this was written; it emits one mesh with
// POSITION + NORMAL + indices and one PBR material, which is all a hardware preview needs.
import type { Hardware } from './types.ts';

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

interface MeshData { positions: number[]; normals: number[]; indices: number[] }

/** Revolves a closed (r, z) loop about z. Bands whose both ends lie on the axis are skipped. */
export function revolve(loop: Pt[], segments = REVOLVE_SEGMENTS): MeshData {
  const positions: number[] = [];
  const normals: number[] = [];
  const indices: number[] = [];
  for (let i = 0; i < loop.length; i++) {
    const [r0, z0] = loop[i];
    const [r1, z1] = loop[(i + 1) % loop.length];
    if (r0 === 0 && r1 === 0) continue;
    // outward normal of the profile edge (loop is CCW with r right, z up -> outward is (dz, -dr))
    const dr = r1 - r0, dz = z1 - z0;
    const len = Math.hypot(dr, dz);
    if (len === 0) continue;
    const nr = dz / len, nz = -dr / len;
    const base = positions.length / 3;
    for (let s = 0; s <= segments; s++) {
      const a = (2 * Math.PI * s) / segments;
      const c = Math.cos(a), sn = Math.sin(a);
      positions.push(r0 * c, r0 * sn, z0, r1 * c, r1 * sn, z1);
      normals.push(nr * c, nr * sn, nz, nr * c, nr * sn, nz);
    }
    for (let s = 0; s < segments; s++) {
      const a0 = base + 2 * s, b0 = a0 + 1, a1 = a0 + 2, b1 = a0 + 3;
      // skip the zero-area triangle at an end on the axis
      if (r0 !== 0) indices.push(a0, a1, b1);
      if (r1 !== 0) indices.push(a0, b1, b0);
    }
  }
  return { positions, normals, indices };
}

const BODY_COLOR: Record<Hardware['body_material'], [number, number, number, number]> = {
  steel: [0.78, 0.79, 0.80, 1], // zinc-plated steel
  stainless: [0.70, 0.71, 0.72, 1],
  aluminum: [0.85, 0.86, 0.88, 1],
};

function pad4(n: number): number { return (n + 3) & ~3; }

/** Binary glTF 2.0 with one triangle mesh. */
export function writeGlb(mesh: MeshData, name: string, color: [number, number, number, number], metalness = 0.9, roughness = 0.35): Uint8Array {
  const vertexCount = mesh.positions.length / 3;
  const pos = new Float32Array(mesh.positions);
  const nor = new Float32Array(mesh.normals);
  const idx = new Uint32Array(mesh.indices);
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < vertexCount; i++) for (let k = 0; k < 3; k++) {
    const v = pos[3 * i + k];
    if (v < min[k]) min[k] = v;
    if (v > max[k]) max[k] = v;
  }
  const posBytes = pos.byteLength, norBytes = nor.byteLength, idxBytes = idx.byteLength;
  const binLength = pad4(posBytes + norBytes + idxBytes);
  const gltf = {
    asset: { version: '2.0', generator: 'kerf catalog hardware-model' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    // glTF is Y-up; the revolved model is Z-up: rotate -90 degrees about X
    nodes: [{ mesh: 0, name, rotation: [-Math.SQRT1_2, 0, 0, Math.SQRT1_2] }],
    meshes: [{ name, primitives: [{ attributes: { POSITION: 0, NORMAL: 1 }, indices: 2, material: 0, mode: 4 }] }],
    materials: [{ name: 'body', pbrMetallicRoughness: { baseColorFactor: color, metallicFactor: metalness, roughnessFactor: roughness } }],
    buffers: [{ byteLength: binLength }],
    bufferViews: [
      { buffer: 0, byteOffset: 0, byteLength: posBytes, target: 34962 },
      { buffer: 0, byteOffset: posBytes, byteLength: norBytes, target: 34962 },
      { buffer: 0, byteOffset: posBytes + norBytes, byteLength: idxBytes, target: 34963 },
    ],
    accessors: [
      { bufferView: 0, componentType: 5126, count: vertexCount, type: 'VEC3', min, max },
      { bufferView: 1, componentType: 5126, count: vertexCount, type: 'VEC3' },
      { bufferView: 2, componentType: 5125, count: idx.length, type: 'SCALAR' },
    ],
    extras: { units: 'mm' },
  };
  // glTF units are metres: scale the node instead of the data so the bounds stay in mm in extras
  (gltf.nodes[0] as Record<string, unknown>).scale = [0.001, 0.001, 0.001];
  const jsonText = new TextEncoder().encode(JSON.stringify(gltf));
  const jsonLength = pad4(jsonText.length);
  const total = 12 + 8 + jsonLength + 8 + binLength;
  const out = new Uint8Array(total);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, 0x46546c67, true); // 'glTF'
  dv.setUint32(4, 2, true);
  dv.setUint32(8, total, true);
  dv.setUint32(12, jsonLength, true);
  dv.setUint32(16, 0x4e4f534a, true); // 'JSON'
  out.set(jsonText, 20);
  for (let i = 20 + jsonText.length; i < 20 + jsonLength; i++) out[i] = 0x20;
  let o = 20 + jsonLength;
  dv.setUint32(o, binLength, true);
  dv.setUint32(o + 4, 0x004e4942, true); // 'BIN\0'
  o += 8;
  out.set(new Uint8Array(pos.buffer), o);
  out.set(new Uint8Array(nor.buffer), o + posBytes);
  out.set(new Uint8Array(idx.buffer), o + posBytes + norBytes);
  return out;
}

/** GLB of a stud, nut or standoff, built from its catalog dimensions (mm, Z-up revolved, Y-up in glTF). */
export function hardwareModelGlb(item: Hardware): Uint8Array {
  return writeGlb(revolve(hardwareProfile(item)), item.id, BODY_COLOR[item.body_material]);
}
