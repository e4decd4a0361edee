// The bodies of a STEP file as exact shapes, surface models included: faces that belong to no solid
// (open shells, surface exports) are sewn; every shell that then closes becomes a solid, every shell
// that stays open is kept as an open body. The importer (meshes) and the production STEP writer
// (exact solids) both take their bodies from here, so they always see the same bodies.
import { EngineError } from '../contract.ts';
import { scratchName, type OC } from './exact-kernel.ts';

/** Faces whose edges lie this close are sewn together, mm (CAD export gaps are microns). */
const SEW_TOLERANCE_MM = 0.01;
/** Tessellation chord deviation as a share of the body's box diagonal (occt-import-js' default). */
const LINEAR_DEFLECTION_SHARE = 0.001;
/** Tessellation angular deviation, radians (occt-import-js' default). */
const ANGULAR_DEFLECTION = 0.5;

export type ExactBodyKind = 'solid' | 'sewn' | 'open';

export interface ExactBody {
  /** TopoDS_Shape (a solid, or an open shell or face); released by the owner's dispose() */
  shape: unknown;
  kind: ExactBodyKind;
  /** faces the body is made of */
  faces: number;
}

export interface ExactBodies { bodies: ExactBody[]; dispose(): void }

/** Reads the STEP file into one shape (every root, placed). */
export function readStepShape(oc: OC, bytes: Uint8Array, owned: Array<{ delete(): void }>): unknown {
  const name = scratchName('step');
  oc.FS.writeFile(name, bytes);
  const reader = new oc.STEPControl_Reader();
  owned.push(reader);
  try {
    const status = reader.ReadFile(name);
    if (status !== oc.IFSelect_ReturnStatus.IFSelect_RetDone) throw new EngineError('invalid_step', 'the exact kernel could not read the STEP file');
    const progress = new oc.Message_ProgressRange();
    reader.TransferRoots(progress);
    progress.delete();
    const root = reader.OneShape();
    owned.push(root);
    return root;
  } finally {
    try { oc.FS.unlink(name); } catch { /* already gone */ }
  }
}

function count(oc: OC, shape: unknown, kind: unknown, owned: Array<{ delete(): void }>): unknown[] {
  const out: unknown[] = [];
  const ex = new oc.TopExp_Explorer(shape, kind, oc.TopAbs_ShapeEnum.TopAbs_SHAPE);
  for (; ex.More(); ex.Next()) { const s = ex.Current(); owned.push(s); out.push(s); }
  ex.delete();
  return out;
}

function signedVolume(oc: OC, shape: unknown): number {
  const props = new oc.GProp_GProps();
  oc.BRepGProp.VolumeProperties(shape, props, false, false, false);
  const v = props.Mass();
  props.delete();
  return v;
}

/**
 * Every body of the shape: its solids as they are, then what the faces outside every solid sew into
 * (closed shells as solids, outward; open shells and lone faces as open bodies).
 */
export function exactBodies(oc: OC, root: unknown): ExactBodies {
  const owned: Array<{ delete(): void }> = [];
  const E = oc.TopAbs_ShapeEnum;
  const bodies: ExactBody[] = [];
  try {
    const ex = new oc.TopExp_Explorer(root, E.TopAbs_SOLID, E.TopAbs_SHAPE);
    for (; ex.More(); ex.Next()) {
      const s = ex.Current(); owned.push(s);
      bodies.push({ shape: s, kind: 'solid', faces: count(oc, s, E.TopAbs_FACE, owned).length });
    }
    ex.delete();
    const loose: unknown[] = [];
    const fx = new oc.TopExp_Explorer(root, E.TopAbs_FACE, E.TopAbs_SOLID);
    for (; fx.More(); fx.Next()) { const f = fx.Current(); owned.push(f); loose.push(f); }
    fx.delete();
    if (loose.length > 0) {
      const sewing = new oc.BRepBuilderAPI_Sewing(SEW_TOLERANCE_MM, true, true, true, false);
      owned.push(sewing);
      for (const f of loose) sewing.Add(f);
      const progress = new oc.Message_ProgressRange();
      sewing.Perform(progress);
      progress.delete();
      const sewn = sewing.SewedShape();
      owned.push(sewn);
      for (const shell of count(oc, sewn, E.TopAbs_SHELL, owned)) {
        const faces = count(oc, shell, E.TopAbs_FACE, owned).length;
        // closed: every edge is shared by two of its faces
        if (!oc.BRep_Tool.IsClosed(shell)) { bodies.push({ shape: shell, kind: 'open', faces }); continue; }
        const mk = new oc.BRepBuilderAPI_MakeSolid(oc.TopoDS.Shell(shell));
        owned.push(mk);
        let solid = mk.Solid();
        owned.push(solid);
        // a shell sewn inside out bounds a negative volume: turn it outward
        if (signedVolume(oc, solid) < 0) { solid = solid.Reversed(); owned.push(solid); }
        bodies.push({ shape: solid, kind: 'sewn', faces });
      }
      const lone = new oc.TopExp_Explorer(sewn, E.TopAbs_FACE, E.TopAbs_SHELL);
      for (; lone.More(); lone.Next()) {
        const f = lone.Current(); owned.push(f);
        bodies.push({ shape: f, kind: 'open', faces: 1 });
      }
      lone.delete();
    }
    return { bodies, dispose: () => { for (const o of owned.splice(0).reverse()) { try { o.delete(); } catch { /* released with its parent */ } } } };
  } catch (err) {
    for (const o of owned.splice(0).reverse()) { try { o.delete(); } catch { /* released with its parent */ } }
    throw err;
  }
}

export interface BodyMesh {
  positions: Float64Array;
  indices: Uint32Array;
  faceRanges: Array<{ first: number; last: number }>;
}

function boxDiagonal(oc: OC, shape: unknown): number {
  const box = new oc.Bnd_Box();
  oc.BRepBndLib.AddOptimal(shape, box, false, false);
  const lo = box.CornerMin(), hi = box.CornerMax();
  const d = Math.hypot(hi.X() - lo.X(), hi.Y() - lo.Y(), hi.Z() - lo.Z());
  lo.delete(); hi.delete(); box.delete();
  return d;
}

/** Triangles of the body, one triangle range per B-rep face, wound by the face's orientation, mm. */
export function meshBody(oc: OC, shape: unknown): BodyMesh {
  const diag = boxDiagonal(oc, shape) || 1;
  const mesher = new oc.BRepMesh_IncrementalMesh(shape, LINEAR_DEFLECTION_SHARE * diag, false, ANGULAR_DEFLECTION, false);
  mesher.delete();
  const pos: number[] = [], idx: number[] = [];
  const faceRanges: Array<{ first: number; last: number }> = [];
  const ex = new oc.TopExp_Explorer(shape, oc.TopAbs_ShapeEnum.TopAbs_FACE, oc.TopAbs_ShapeEnum.TopAbs_SHAPE);
  for (; ex.More(); ex.Next()) {
    const current = ex.Current();
    const face = oc.TopoDS.Face(current);
    const loc = new oc.TopLoc_Location();
    const tri = oc.BRep_Tool.Triangulation(face, loc, 0);
    const first = idx.length / 3;
    if (tri && !tri.isNull?.()) {
      const trsf = loc.Transformation();
      const base = pos.length / 3;
      for (let i = 1; i <= tri.NbNodes(); i++) {
        const p = tri.Node(i), q = p.Transformed(trsf);
        pos.push(q.X(), q.Y(), q.Z());
        q.delete(); p.delete();
      }
      const forward = face.Orientation() === oc.TopAbs_Orientation.TopAbs_FORWARD;
      for (let i = 1; i <= tri.NbTriangles(); i++) {
        const t = tri.Triangle(i);
        const a = t.Value(1), b = t.Value(2), c = t.Value(3);
        t.delete();
        if (forward) idx.push(base + a - 1, base + b - 1, base + c - 1);
        else idx.push(base + b - 1, base + a - 1, base + c - 1);
      }
      trsf.delete();
    }
    tri?.delete?.();
    loc.delete(); face.delete(); current.delete();
    const last = idx.length / 3 - 1;
    if (last >= first) faceRanges.push({ first, last });
  }
  ex.delete();
  return { positions: Float64Array.from(pos), indices: Uint32Array.from(idx), faceRanges };
}
