// Triangle meshes of a part for GLB and images: the formed solid moved into its normalized frame,
// and the flat pattern extruded by the thickness.
import type { FlatGeometry, Rigid, Solid, Vec3 } from '../geometry/model.ts';
import { EngineError } from '../contract.ts';
import type { TriangleMesh } from './glb.ts';
import { loadManifold } from './manifold.ts';
import { contourToPolyline } from './polyline.ts';

export function applyRigid(frame: Rigid, p: Vec3): Vec3 {
  const [r0, r1, r2] = frame.rotation;
  const t = frame.translation;
  return [
    r0[0] * p[0] + r0[1] * p[1] + r0[2] * p[2] + t[0],
    r1[0] * p[0] + r1[1] * p[1] + r1[2] * p[2] + t[1],
    r2[0] * p[0] + r2[1] * p[1] + r2[2] * p[2] + t[2],
  ];
}

export function rotate(frame: Rigid, v: Vec3): Vec3 {
  const [r0, r1, r2] = frame.rotation;
  return [r0[0] * v[0] + r0[1] * v[1] + r0[2] * v[2], r1[0] * v[0] + r1[1] * v[1] + r1[2] * v[2], r2[0] * v[0] + r2[1] * v[1] + r2[2] * v[2]];
}

/** The solid's welded mesh in the normalized frame (a rigid motion keeps the winding outward). */
export function formedMesh(solid: Solid, frame: Rigid): TriangleMesh & { positions: Float64Array; indices: Uint32Array } {
  const src = solid.points;
  const positions = new Float64Array(src.length);
  for (let i = 0; i < src.length; i += 3) {
    const q = applyRigid(frame, [src[i], src[i + 1], src[i + 2]]);
    positions[i] = q[0]; positions[i + 1] = q[1]; positions[i + 2] = q[2];
  }
  return { positions, indices: solid.triangles };
}

/** The flat pattern as a closed solid: outer contour minus inner contours, extruded along +Z by the thickness. */
export async function flatMesh(flat: FlatGeometry, thickness: number): Promise<TriangleMesh & { positions: Float32Array; indices: Uint32Array }> {
  if (!(thickness > 0)) throw new EngineError('analysis_failed', `flat pattern needs a positive thickness, got ${thickness} mm`);
  if (flat.outer.length === 0) throw new EngineError('analysis_failed', 'flat pattern has no outer contour');
  const wasm = await loadManifold();
  const loops = [flat.outer, ...flat.inner].map((c) => contourToPolyline(c));
  // EvenOdd: an inner contour is a hole whatever its winding
  const section = new wasm.CrossSection(loops, 'EvenOdd');
  const solid = section.extrude(thickness);
  try {
    const mesh = solid.getMesh();
    const numProp: number = mesh.numProp;
    const vert: Float32Array = mesh.vertProperties;
    const count = vert.length / numProp;
    const positions = new Float32Array(count * 3);
    for (let i = 0; i < count; i++) {
      positions[3 * i] = vert[i * numProp];
      positions[3 * i + 1] = vert[i * numProp + 1];
      positions[3 * i + 2] = vert[i * numProp + 2];
    }
    return { positions, indices: new Uint32Array(mesh.triVerts) };
  } finally {
    solid.delete();
    section.delete();
  }
}
