// STEP bytes -> solids in millimetres. Errors are EngineErrors with a code, never a crash.
import { EngineError } from '../contract.ts';
import type { ImportedSolid } from '../geometry/model.ts';
import { loadOcct, resetOcct, type OcctParams, type OcctMesh } from './occt.ts';
import { declaredAccuracyMm } from './accuracy.ts';
import { assertStepBytes, declaredSolidCount, declaresSurfaceModel, declaresSurfacesOnly, unwrapStepBytes } from './sniff.ts';
import { attachVoids, mergeShells, splitShells, type Shell } from './split.ts';
import { loadExactKernel } from './exact-kernel.ts';
import { exactBodies, meshBody, readStepShape, type ExactBodies } from './sew.ts';
import { bodyNames, meshNames } from './names.ts';

export { loadOcct } from './occt.ts';
export { assertStepBytes, assertStepEnds, STEP_SNIFF_BYTES } from './sniff.ts';

/** Output always in mm whatever the file's unit; OCCT's default deflection keeps import fast and
 * its vertices lie on the exact surfaces, which is all the analytic fits need. */
export const IMPORT_PARAMS: OcctParams = { linearUnit: 'millimeter' };

// A plain loop, not TypedArray.from: the glue's arrays are ordinary JS arrays, which .from walks
// through the iterator protocol at several times the cost; same element conversions.
function toFloat64(a: ArrayLike<number>): Float64Array {
  if (a instanceof Float64Array) return a;
  const out = new Float64Array(a.length);
  for (let i = 0; i < out.length; i++) out[i] = a[i];
  return out;
}
function toUint32(a: ArrayLike<number>): Uint32Array {
  if (a instanceof Uint32Array) return a;
  const out = new Uint32Array(a.length);
  for (let i = 0; i < out.length; i++) out[i] = a[i];
  return out;
}

function noSolid(bytes: Uint8Array): EngineError {
  return new EngineError('empty_model', declaresSurfacesOnly(bytes)
    ? 'the STEP file contains surfaces or curves but no solid: export the part as a solid body'
    : 'the STEP file contains no solid');
}

/** A shell with a few open edges (gaps a CAD export left between faces) is still a solid; a surface
 * model is open along its whole border. Largest share of open triangle sides, over all sides. */
export const MAX_OPEN_SIDE_SHARE = 0.01;

export function isSolidShell(s: Shell): boolean {
  return s.boundaryEdges === 0 || s.boundaryEdges <= MAX_OPEN_SIDE_SHARE * s.indices.length;
}

/** What became of one body of the file. */
export type BodyOrigin =
  /** a closed solid as the file has it */
  | { kind: 'solid' }
  /** open shells or loose faces of a surface model, sewn into this closed solid */
  | { kind: 'sewn'; faces: number }
  /** a shell that stays open after sewing: bounds no volume, cannot be made */
  | { kind: 'open_shell'; faces: number; openEdges: number };

export interface ImportResult {
  solids: ImportedSolid[];
  /** per solid (same order): where it came from */
  origins: BodyOrigin[];
  /** the distance accuracy the file declares for its geometry, mm (null: none declared) */
  accuracyMm: number | null;
}

function checkMesh(name: string, positions: Float64Array, indices: Uint32Array): void {
  for (let k = 0; k < positions.length; k++) {
    if (!Number.isFinite(positions[k])) throw new EngineError('unsupported_geometry', `solid '${name}' has non-finite coordinates`);
  }
  const vertexCount = positions.length / 3;
  for (let k = 0; k < indices.length; k++) {
    if (indices[k] >= vertexCount) throw new EngineError('unsupported_geometry', `solid '${name}' has a triangle referring to a missing vertex`);
  }
}

/** Reads a STEP file: every closed shell of every mesh becomes one solid, in file order; shells that
 * stay open are bodies too (origin open_shell). A file with surface models is read through the exact
 * kernel, which sews its open shells first (see sew.ts). */
export async function importStepDetailed(upload: Uint8Array): Promise<ImportResult> {
  const bytes = unwrapStepBytes(upload);
  assertStepBytes(bytes);
  const occt = await loadOcct();
  let result;
  try {
    // OCCT may keep a reference to the buffer it is given: hand it its own copy.
    result = occt.ReadStepFile(new Uint8Array(bytes), IMPORT_PARAMS);
  } catch (err) {
    resetOcct();
    throw new EngineError('invalid_step', `the STEP file could not be read: ${(err as Error)?.message ?? String(err)}`);
  }
  const read = result && result.success ? result : null;
  // a surface model is read by the exact kernel even where the mesher gave up (its meshes only name bodies)
  if (declaresSurfaceModel(bytes)) {
    const sewn = await importSewn(bytes, read?.meshes ?? [], read ? meshNames(read, bytes) : []);
    if (sewn.solids.length === 0) throw noSolid(bytes);
    return { ...sewn, accuracyMm: declaredAccuracyMm(bytes) };
  }
  if (!read) {
    if (declaredSolidCount(bytes) === 0) throw noSolid(bytes);
    throw new EngineError('invalid_step', 'the STEP file is corrupt: the STEP reader could not read its solids');
  }
  const meshes = Array.isArray(read.meshes) ? read.meshes : [];
  const names = meshNames(read, bytes);
  const solids: ImportedSolid[] = [];
  const origins: BodyOrigin[] = [];
  const open: ImportedSolid[] = [];
  meshes.forEach((mesh, i) => {
    const positions = toFloat64(mesh.attributes?.position?.array ?? []);
    const indices = toUint32(mesh.index?.array ?? []);
    if (indices.length === 0) return;
    checkMesh(names[i], positions, indices);
    const faceRanges = (mesh.brep_faces ?? []).map((f) => ({ first: f.first, last: f.last }));
    if (faceRanges.length === 0) faceRanges.push({ first: 0, last: indices.length / 3 - 1 });
    const shells: Shell[] = splitShells({ name: names[i], positions, indices, faceRanges });
    const closed = attachVoids(shells.filter(isSolidShell));
    const gaps = shells.filter((s) => !isSolidShell(s));
    const count = closed.length + gaps.length;
    let k = 0;
    const named = (s: Shell) => (count > 1 ? `${s.name} (${++k})` : s.name);
    for (const s of closed) {
      solids.push({ name: named(s), positions: s.positions, indices: s.indices, faceRanges: s.faceRanges, ...(s.boundaryEdges > 0 ? { openEdges: s.boundaryEdges } : {}) });
      origins.push({ kind: 'solid' });
    }
    for (const s of gaps) open.push({ name: named(s), positions: s.positions, indices: s.indices, faceRanges: s.faceRanges, openEdges: s.boundaryEdges });
  });
  if (solids.length === 0) {
    const declared = declaredSolidCount(bytes);
    if (declared > 0) throw new EngineError('invalid_step', `the STEP file is corrupt: it declares ${declared} solid(s) but none could be read as a closed solid`);
    throw open.length > 0 ? new EngineError('empty_model', `the STEP file has ${open.length} open surface model(s) but no closed solid`) : noSolid(bytes);
  }
  // shells torn open beside readable solids are bodies of the design too, never dropped
  for (const s of open) { solids.push(s); origins.push({ kind: 'open_shell', faces: s.faceRanges.length, openEdges: s.openEdges ?? 0 }); }
  return { solids, origins, accuracyMm: declaredAccuracyMm(bytes) };
}

/** Surface-model files: the exact kernel reads every body, sews the open shells and meshes them. */
async function importSewn(bytes: Uint8Array, meshes: OcctMesh[], names: string[]): Promise<Omit<ImportResult, 'accuracyMm'>> {
  const oc = await loadExactKernel();
  const owned: Array<{ delete(): void }> = [];
  let exact: ExactBodies | null = null;
  try {
    exact = exactBodies(oc, readStepShape(oc, bytes, owned));
    const bodyMeshes = exact.bodies.map((b) => meshBody(oc, b.shape));
    const labels = bodyNames(bodyMeshes, meshes, names);
    const solids: ImportedSolid[] = [];
    const origins: BodyOrigin[] = [];
    exact.bodies.forEach((b, i) => {
      const m = bodyMeshes[i], name = labels[i];
      if (m.indices.length === 0) return;
      checkMesh(name, m.positions, m.indices);
      // one exact body is one body even where its mesh does not weld into one shell
      const shell = splitShells({ name, ...m }).reduce((a, c) => mergeShells(a, c));
      const openEdges = shell.boundaryEdges;
      solids.push({ name, positions: shell.positions, indices: shell.indices, faceRanges: shell.faceRanges, ...(openEdges > 0 ? { openEdges } : {}) });
      // a solid entity whose shell is torn open is judged like every mesh: by its open sides
      const open = b.kind === 'open' || (b.kind === 'solid' && !isSolidShell(shell));
      origins.push(open ? { kind: 'open_shell', faces: b.faces, openEdges } : b.kind === 'sewn' ? { kind: 'sewn', faces: b.faces } : { kind: 'solid' });
    });
    return { solids, origins };
  } catch (err) {
    if (err instanceof EngineError) throw err;
    // the kernel throws WASM exception pointers, not errors: say what failed instead
    throw new EngineError('unsupported_geometry', `the surface model could not be sewn into bodies (${err instanceof Error ? err.message : `OCCT exception ${String(err)}`})`);
  } finally {
    exact?.dispose();
    for (const o of owned.reverse()) { try { o.delete(); } catch { /* released with its parent */ } }
  }
}

export async function importStep(bytes: Uint8Array): Promise<ImportedSolid[]> {
  return (await importStepDetailed(bytes)).solids;
}
