// STEP bytes -> solids in millimetres. Errors are EngineErrors with a code, never a crash.
import { EngineError } from '../contract.ts';
import type { ImportedSolid } from '../geometry/model.ts';
import { loadOcct, resetOcct, type OcctParams, type OcctMesh } from './occt.ts';
import { assertStepBytes, declaredSolidCount, declaresSurfacesOnly, unwrapStepBytes } from './sniff.ts';
import { attachVoids, splitShells, type Shell } from './split.ts';

export { loadOcct } from './occt.ts';
export { assertStepBytes } from './sniff.ts';

/** Output always in mm whatever the file's unit; OCCT's default deflection keeps import fast and
 * its vertices lie on the exact surfaces, which is all the analytic fits need. */
export const IMPORT_PARAMS: OcctParams = { linearUnit: 'millimeter' };

function toFloat64(a: ArrayLike<number>): Float64Array { return a instanceof Float64Array ? a : Float64Array.from(a); }
function toUint32(a: ArrayLike<number>): Uint32Array { return a instanceof Uint32Array ? a : Uint32Array.from(a); }

/** Names a STEP writer puts when the CAD model had none: not worth showing as a part name. */
const PLACEHOLDER_NAME = /^(open cascade step translator\b.*|none|unnamed|\$)$/i;

function meshName(mesh: OcctMesh, i: number): string {
  const name = typeof mesh.name === 'string' ? mesh.name.trim() : '';
  return name && !PLACEHOLDER_NAME.test(name) ? name : `Solid ${i + 1}`;
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

export interface ImportResult { solids: ImportedSolid[]; openShells: number }

/** Reads a STEP file; every closed shell of every mesh becomes one solid, in file order. */
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
  if (!result || !result.success) {
    if (declaredSolidCount(bytes) === 0) throw noSolid(bytes);
    throw new EngineError('invalid_step', 'the STEP file is corrupt: the STEP reader could not read its solids');
  }
  const meshes = Array.isArray(result.meshes) ? result.meshes : [];
  const solids: ImportedSolid[] = [];
  let openShells = 0;
  meshes.forEach((mesh, i) => {
    const positions = toFloat64(mesh.attributes?.position?.array ?? []);
    const indices = toUint32(mesh.index?.array ?? []);
    if (indices.length === 0) return;
    for (let k = 0; k < positions.length; k++) {
      if (!Number.isFinite(positions[k])) throw new EngineError('unsupported_geometry', `solid '${meshName(mesh, i)}' has non-finite coordinates`);
    }
    const vertexCount = positions.length / 3;
    for (let k = 0; k < indices.length; k++) {
      if (indices[k] >= vertexCount) throw new EngineError('unsupported_geometry', `solid '${meshName(mesh, i)}' has a triangle referring to a missing vertex`);
    }
    const faceRanges = (mesh.brep_faces ?? []).map((f) => ({ first: f.first, last: f.last }));
    if (faceRanges.length === 0) faceRanges.push({ first: 0, last: indices.length / 3 - 1 });
    const shells: Shell[] = splitShells({ name: meshName(mesh, i), positions, indices, faceRanges });
    const solidShells = shells.filter(isSolidShell);
    openShells += shells.length - solidShells.length;
    const closed = attachVoids(solidShells);
    closed.forEach((s, k) => {
      solids.push({
        name: closed.length > 1 ? `${s.name} (${k + 1})` : s.name,
        positions: s.positions,
        indices: s.indices,
        faceRanges: s.faceRanges,
        ...(s.boundaryEdges > 0 ? { openEdges: s.boundaryEdges } : {}),
      });
    });
  });
  if (solids.length === 0) {
    const declared = declaredSolidCount(bytes);
    if (declared > 0) throw new EngineError('invalid_step', `the STEP file is corrupt: it declares ${declared} solid(s) but none could be read as a closed solid`);
    throw openShells > 0 ? new EngineError('empty_model', `the STEP file has ${openShells} open surface model(s) but no closed solid`) : noSolid(bytes);
  }
  return { solids, openShells };
}

export async function importStep(bytes: Uint8Array): Promise<ImportedSolid[]> {
  return (await importStepDetailed(bytes)).solids;
}
