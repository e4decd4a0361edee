// Exact B-rep work with OCCT (replicad-opencascadejs, ~23 MB of WASM, see import/exact-kernel.ts):
// production STEP files. occt-import-js stays the importer of solids; this module re-reads the source
// STEP only to keep the exact surfaces, taking its bodies from import/sew.ts as the importer does.
import { EngineError } from '../contract.ts';
import type { Contour, Rigid, Vec3 } from '../geometry/model.ts';
import { arcSweep } from '../sheet/segments.ts';
import { kernelEdges } from './kernel-contour.ts';
import { loadExactKernel, scratchName, type OC } from '../import/exact-kernel.ts';
import { exactBodies, readStepShape, type ExactBodies } from '../import/sew.ts';
import { unwrapStepBytes } from '../import/sniff.ts';
import { encodeStepString } from '../import/step-string.ts';

export interface ExactSolid {
  /** TopoDS_Shape; owned by the caller's ExactModel, released by its dispose() */
  shape: unknown;
  volume: number;
  centroid: Vec3;
  bboxMin: Vec3;
  bboxMax: Vec3;
}

export interface ExactModel { solids: ExactSolid[]; dispose(): void }

function measure(oc: OC, shape: unknown): { volume: number; centroid: Vec3; bboxMin: Vec3; bboxMax: Vec3 } {
  const props = new oc.GProp_GProps();
  oc.BRepGProp.VolumeProperties(shape, props, false, false, false);
  const c = props.CentreOfMass();
  const centroid: Vec3 = [c.X(), c.Y(), c.Z()];
  const volume = props.Mass();
  c.delete(); props.delete();
  const box = new oc.Bnd_Box();
  // the tight box of the trimmed faces: Add() bounds whole surfaces and control points (a torus or a
  // holed cylinder came out tens of mm larger than the part, so no body matched its mesh)
  oc.BRepBndLib.AddOptimal(shape, box, false, false);
  const lo = box.CornerMin(), hi = box.CornerMax();
  const bboxMin: Vec3 = [lo.X(), lo.Y(), lo.Z()], bboxMax: Vec3 = [hi.X(), hi.Y(), hi.Z()];
  lo.delete(); hi.delete(); box.delete();
  return { volume: Math.abs(volume), centroid, bboxMin, bboxMax };
}

/** Every solid of a STEP file (surface models sewn into solids as the importer does, see
 * import/sew.ts) with its exact volume, centroid and bounding box (file units -> mm by OCCT). */
export async function readExactSolids(stepBytes: Uint8Array): Promise<ExactModel> {
  const oc = await loadExactKernel();
  const owned: Array<{ delete(): void }> = [];
  let bodies: ExactBodies | null = null;
  const release = () => { bodies?.dispose(); for (const o of owned.splice(0).reverse()) { try { o.delete(); } catch { /* released with its parent */ } } };
  try {
    bodies = exactBodies(oc, readStepShape(oc, unwrapStepBytes(stepBytes), owned));
    const solids = bodies.bodies.filter((b) => b.kind !== 'open').map((b) => ({ shape: b.shape, ...measure(oc, b.shape) }));
    return { solids, dispose: release };
  } catch (err) {
    release();
    throw err;
  }
}

/** Picks the exact solid that is the same body as a mesh solid: same volume, same centroid and box. */
export function matchSolid(model: ExactModel, target: { volume: number; centroid: Vec3; bboxMin: Vec3; bboxMax: Vec3 }): ExactSolid | null {
  let best: ExactSolid | null = null;
  let bestScore = Infinity;
  const size = Math.hypot(target.bboxMax[0] - target.bboxMin[0], target.bboxMax[1] - target.bboxMin[1], target.bboxMax[2] - target.bboxMin[2]) || 1;
  for (const s of model.solids) {
    const dv = Math.abs(s.volume - target.volume) / Math.max(target.volume, 1e-9);
    const dc = Math.hypot(s.centroid[0] - target.centroid[0], s.centroid[1] - target.centroid[1], s.centroid[2] - target.centroid[2]) / size;
    let db = 0;
    for (let k = 0; k < 3; k++) db = Math.max(db, Math.abs(s.bboxMin[k] - target.bboxMin[k]), Math.abs(s.bboxMax[k] - target.bboxMax[k]));
    const score = dv + dc + db / size;
    if (score < bestScore) { bestScore = score; best = s; }
  }
  // a tessellated volume is within a few tenths of a percent of the exact one; far more is another body
  return best && bestScore < MATCH_SCORE_LIMIT ? best : null;
}
/** Relative volume + centroid + box mismatch above which no exact solid is the part */
const MATCH_SCORE_LIMIT = 0.05;

/**
 * FILE_NAME's time stamp in every production STEP file. OCCT writes the time of writing; a fixed one
 * makes the same part the same bytes every time, so a fab shop can diff a reorder's files against
 * the last ones (the part's source file and its revision are what date it, not the writing).
 */
export const PRODUCTION_STEP_TIME_STAMP = '1970-01-01T00:00:00';

// What OCCT's writer says about the part, rewritten into what is the same on every write:
// - PRODUCT is named by OCCT "Open CASCADE STEP translator 8.0 <n>", n counting every shape the
//   thread's WASM instance ever wrote (its STEP writing actor is one per instance and is never reset,
//   and the bindings reach neither it nor the product entity), so a file depended on the files
//   written before it in that thread. Its name and id become the part's name; its entity is re-spelt
//   on one line, since OCCT breaks lines by their length, which the counter's digits change.
// - FILE_NAME's time stamp (above).
const OCCT_PRODUCT = /^(#\d+) = PRODUCT\(\s*'[^']*'\s*,\s*'[^']*'\s*,\s*'([^']*)'\s*,\s*\(([^)]*)\)\s*\);/m;
const OCCT_FILE_NAME_TIME = /^(FILE_NAME\(\s*'(?:[^']|'')*'\s*,\s*)'[^']*'/m;

function historyFree(step: string, productName: string): string {
  if (!OCCT_PRODUCT.test(step) || !OCCT_FILE_NAME_TIME.test(step)) {
    throw new EngineError('analysis_failed', 'the exact kernel wrote a STEP file without the PRODUCT or FILE_NAME it always writes');
  }
  const name = encodeStepString(productName);
  return step
    .replace(OCCT_PRODUCT, (_, id: string, description: string, contexts: string) => `${id} = PRODUCT('${name}','${name}','${description}',(${contexts.replace(/\s+/g, '')}));`)
    .replace(OCCT_FILE_NAME_TIME, `$1'${PRODUCTION_STEP_TIME_STAMP}'`);
}

/** The shape as a STEP file whose PRODUCT is `productName`, the same bytes whatever was written before. */
function writeShape(oc: OC, shape: unknown, productName: string): Uint8Array {
  const name = scratchName('step');
  const writer = new oc.STEPControl_Writer();
  const progress = new oc.Message_ProgressRange();
  try {
    oc.Interface_Static.SetIVal('write.step.schema', 5); // 5 is AP242 (OCCT's numbering; 4 would be AP214 IS)
    oc.Interface_Static.SetCVal('write.step.unit', 'MM');
    const t = writer.Transfer(shape, oc.STEPControl_StepModelType.STEPControl_AsIs, true, progress);
    if (t !== oc.IFSelect_ReturnStatus.IFSelect_RetDone) throw new EngineError('analysis_failed', 'the exact kernel could not translate the part to STEP');
    const w = writer.Write(name);
    if (w !== oc.IFSelect_ReturnStatus.IFSelect_RetDone) throw new EngineError('analysis_failed', 'the exact kernel could not write the STEP file');
    // OCCT writes 7-bit text (the product name is escaped to 7 bits too): latin1 maps it byte for byte
    const written = Buffer.from(oc.FS.readFile(name) as Uint8Array).toString('latin1');
    return new Uint8Array(Buffer.from(historyFree(written, productName), 'latin1'));
  } finally {
    writer.delete(); progress.delete();
    try { oc.FS.unlink(name); } catch { /* never written */ }
  }
}

/** STEP of one exact solid moved by a rigid motion (source -> normalized frame), its PRODUCT named `productName`. */
export async function writeTransformedStep(solid: ExactSolid, frame: Rigid, productName: string): Promise<Uint8Array> {
  const oc = await loadExactKernel();
  const trsf = new oc.gp_Trsf();
  const [r0, r1, r2] = frame.rotation, t = frame.translation;
  trsf.SetValues(r0[0], r0[1], r0[2], t[0], r1[0], r1[1], r1[2], t[1], r2[0], r2[1], r2[2], t[2]);
  const op = new oc.BRepBuilderAPI_Transform(solid.shape, trsf, true, false);
  try {
    const moved = op.Shape();
    try { return writeShape(oc, moved, productName); } finally { moved.delete(); }
  } finally { op.delete(); trsf.delete(); }
}

function makeWire(oc: OC, contour: Contour, owned: Array<{ delete(): void }>): unknown {
  const mk = new oc.BRepBuilderAPI_MakeWire();
  owned.push(mk);
  const pnt = (x: number, y: number) => { const p = new oc.gp_Pnt(x, y, 0); owned.push(p); return p; };
  for (const e of kernelEdges(contour)) {
    let edgeMaker;
    if (e.kind === 'line') {
      edgeMaker = new oc.BRepBuilderAPI_MakeEdge(pnt(e.a[0], e.a[1]), pnt(e.b[0], e.b[1]));
    } else {
      const s = e.arc;
      const dir = new oc.gp_Dir(0, 0, 1);
      const ax = new oc.gp_Ax2(pnt(s.center[0], s.center[1]), dir);
      const circ = new oc.gp_Circ(ax, s.radius);
      owned.push(dir, ax, circ);
      // OCCT parameterises a circle counter-clockwise about +Z; a clockwise arc is the same edge reversed
      const sweep = arcSweep(s);
      const a1 = ((sweep >= 0 ? s.startDegrees : s.endDegrees) * Math.PI) / 180;
      const a2 = a1 + Math.abs(sweep);
      edgeMaker = new oc.BRepBuilderAPI_MakeEdge(circ, a1, a2);
    }
    owned.push(edgeMaker);
    if (!edgeMaker.IsDone()) throw new EngineError('analysis_failed', 'flat contour has a segment the exact kernel cannot build');
    const edge = edgeMaker.Edge();
    owned.push(edge);
    mk.Add(edge);
  }
  if (!mk.IsDone()) throw new EngineError('analysis_failed', 'flat contour does not close into one wire');
  const wire = mk.Wire();
  owned.push(wire);
  return wire;
}

/** The flat pattern as an exact solid (planar face with true arcs, extruded by the thickness), as STEP with its PRODUCT named `productName`. */
export async function writeFlatStep(outer: Contour, inner: Contour[], thickness: number, productName = 'flat'): Promise<{ step: Uint8Array; volume: number }> {
  const oc = await loadExactKernel();
  const owned: Array<{ delete(): void }> = [];
  try {
    const outerWire = makeWire(oc, outer, owned);
    const faceMaker = new oc.BRepBuilderAPI_MakeFace(outerWire, true);
    owned.push(faceMaker);
    if (!faceMaker.IsDone()) throw new EngineError('analysis_failed', 'flat outer contour is not a planar face');
    let face = faceMaker.Face();
    owned.push(face);
    // orient the outer boundary counter-clockwise so the prism normal is +Z
    const probe = measureArea(oc, face);
    if (probe < 0) { /* orientation is handled by ShapeFix below */ }
    for (const c of inner) {
      const w = makeWire(oc, c, owned);
      faceMaker.Add(w);
    }
    face = faceMaker.Face();
    owned.push(face);
    const fix = new oc.ShapeFix_Face(face);
    owned.push(fix);
    fix.FixOrientation();
    const progress = new oc.Message_ProgressRange();
    owned.push(progress);
    fix.Perform(progress);
    const fixed = fix.Face();
    owned.push(fixed);
    const vec = new oc.gp_Vec(0, 0, thickness);
    owned.push(vec);
    const prism = new oc.BRepPrimAPI_MakePrism(fixed, vec, false, true);
    owned.push(prism);
    const solid = prism.Shape();
    owned.push(solid);
    const { volume } = measure(oc, solid);
    return { step: writeShape(oc, solid, productName), volume };
  } finally {
    for (const o of owned.reverse()) { try { o.delete(); } catch { /* already released with its parent */ } }
  }
}

function measureArea(oc: OC, face: unknown): number {
  const props = new oc.GProp_GProps();
  oc.BRepGProp.SurfaceProperties(face, props, false, false);
  const a = props.Mass();
  props.delete();
  return a;
}
