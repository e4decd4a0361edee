// glTF 2.0 binary (GLB) writer for one triangle mesh, written by hand so the output is exactly what
// the Khronos validator expects: 4-byte aligned chunks, min/max on POSITION, unit normals.
// Vertices are split per triangle (flat shading): sheet parts are mostly planes, and smooth normals
// across a sharp edge would make the part look rounded.

export interface TriangleMesh {
  /** xyz per vertex, mm */
  positions: ArrayLike<number>;
  /** 3 vertex indices per triangle, wound counter-clockwise seen from outside */
  indices: ArrayLike<number>;
}

export interface GlbOptions {
  name?: string;
  /** linear RGB 0..1 */
  color?: [number, number, number];
  metallic?: number;
  roughness?: number;
}

const GLB_MAGIC = 0x46546c67; // 'glTF'
const CHUNK_JSON = 0x4e4f534a; // 'JSON'
const CHUNK_BIN = 0x004e4942; // 'BIN\0'
/** glTF scenes are in metres; our geometry is in mm */
const MM_TO_M = 0.001;
/** triangles whose doubled area is below this (mm2) carry no visible surface and make the validator warn */
const DEGENERATE_AREA_MM2 = 1e-12;

const ARRAY_BUFFER = 34962;
const ELEMENT_ARRAY_BUFFER = 34963;
const FLOAT = 5126;
const UNSIGNED_INT = 5125;

/** Flat-shaded, non-indexed-by-vertex copy of the mesh: 3 fresh vertices per kept triangle. */
function flatShade(mesh: TriangleMesh): { positions: Float32Array; normals: Float32Array; count: number } {
  const p = mesh.positions;
  const idx = mesh.indices;
  const triCount = Math.floor(idx.length / 3);
  const positions = new Float32Array(triCount * 9);
  const normals = new Float32Array(triCount * 9);
  let kept = 0;
  for (let t = 0; t < triCount; t++) {
    const a = idx[3 * t] * 3, b = idx[3 * t + 1] * 3, c = idx[3 * t + 2] * 3;
    const ux = p[b] - p[a], uy = p[b + 1] - p[a + 1], uz = p[b + 2] - p[a + 2];
    const vx = p[c] - p[a], vy = p[c + 1] - p[a + 1], vz = p[c + 2] - p[a + 2];
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const len = Math.hypot(nx, ny, nz);
    if (!(len > DEGENERATE_AREA_MM2)) continue;
    const o = kept * 9;
    for (let k = 0; k < 3; k++) {
      const src = k === 0 ? a : k === 1 ? b : c;
      positions[o + 3 * k] = p[src] * MM_TO_M;
      positions[o + 3 * k + 1] = p[src + 1] * MM_TO_M;
      positions[o + 3 * k + 2] = p[src + 2] * MM_TO_M;
      normals[o + 3 * k] = nx / len;
      normals[o + 3 * k + 1] = ny / len;
      normals[o + 3 * k + 2] = nz / len;
    }
    // float32 rounding of two nearly equal vertices can still collapse a triangle: drop it
    const q = positions;
    const ex = q[o + 3] - q[o], ey = q[o + 4] - q[o + 1], ez = q[o + 5] - q[o + 2];
    const fx = q[o + 6] - q[o], fy = q[o + 7] - q[o + 1], fz = q[o + 8] - q[o + 2];
    const cross = Math.hypot(ey * fz - ez * fy, ez * fx - ex * fz, ex * fy - ey * fx);
    if (!(cross > 0)) continue;
    kept++;
  }
  return { positions: positions.subarray(0, kept * 9), normals: normals.subarray(0, kept * 9), count: kept * 3 };
}

function pad4(n: number): number { return (n + 3) & ~3; }

/** Writes one mesh as a single-node GLB. An empty mesh still gives a valid file with no primitive. */
export function writeGlb(mesh: TriangleMesh, options: GlbOptions = {}): Uint8Array {
  const { positions, normals, count } = flatShade(mesh);
  const indices = new Uint32Array(count);
  for (let i = 0; i < count; i++) indices[i] = i;

  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < count; i++) {
    for (let k = 0; k < 3; k++) {
      const v = positions[3 * i + k];
      if (v < min[k]) min[k] = v;
      if (v > max[k]) max[k] = v;
    }
  }

  const posBytes = positions.byteLength;
  const nrmBytes = normals.byteLength;
  const idxBytes = indices.byteLength;
  const binLength = posBytes + nrmBytes + idxBytes; // each a multiple of 4
  const color = options.color ?? [0.72, 0.74, 0.77];
  const name = options.name ?? 'part';

  const gltf: Record<string, unknown> = {
    asset: { version: '2.0', generator: 'kerf' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: count > 0 ? [{ name, mesh: 0 }] : [{ name }],
  };
  if (count > 0) {
    Object.assign(gltf, {
      materials: [{
        name: 'metal',
        pbrMetallicRoughness: {
          baseColorFactor: [color[0], color[1], color[2], 1],
          metallicFactor: options.metallic ?? 0.6,
          roughnessFactor: options.roughness ?? 0.45,
        },
        doubleSided: false,
      }],
      meshes: [{ name, primitives: [{ attributes: { POSITION: 0, NORMAL: 1 }, indices: 2, material: 0, mode: 4 }] }],
      buffers: [{ byteLength: binLength }],
      bufferViews: [
        { buffer: 0, byteOffset: 0, byteLength: posBytes, byteStride: 12, target: ARRAY_BUFFER },
        { buffer: 0, byteOffset: posBytes, byteLength: nrmBytes, byteStride: 12, target: ARRAY_BUFFER },
        { buffer: 0, byteOffset: posBytes + nrmBytes, byteLength: idxBytes, target: ELEMENT_ARRAY_BUFFER },
      ],
      accessors: [
        { bufferView: 0, componentType: FLOAT, count, type: 'VEC3', min, max },
        { bufferView: 1, componentType: FLOAT, count, type: 'VEC3' },
        { bufferView: 2, componentType: UNSIGNED_INT, count, type: 'SCALAR', min: [0], max: [count - 1] },
      ],
    });
  }

  const jsonBytes = new TextEncoder().encode(JSON.stringify(gltf));
  const jsonChunkLength = pad4(jsonBytes.length);
  const binChunkLength = pad4(binLength);
  const hasBin = count > 0;
  const total = 12 + 8 + jsonChunkLength + (hasBin ? 8 + binChunkLength : 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, GLB_MAGIC, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, total, true);
  view.setUint32(12, jsonChunkLength, true);
  view.setUint32(16, CHUNK_JSON, true);
  out.set(jsonBytes, 20);
  out.fill(0x20, 20 + jsonBytes.length, 20 + jsonChunkLength); // JSON chunk pads with spaces
  if (hasBin) {
    let o = 20 + jsonChunkLength;
    view.setUint32(o, binChunkLength, true);
    view.setUint32(o + 4, CHUNK_BIN, true);
    o += 8;
    out.set(new Uint8Array(positions.buffer, positions.byteOffset, posBytes), o);
    out.set(new Uint8Array(normals.buffer, normals.byteOffset, nrmBytes), o + posBytes);
    out.set(new Uint8Array(indices.buffer, indices.byteOffset, idxBytes), o + posBytes + nrmBytes);
  }
  return out;
}
