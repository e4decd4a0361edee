// Production files of every part of an analyzed model: exact STEP (formed, flat), GLB (formed,
// flat), DXF (cut, cut + bend lines) and images (SVG, PNG) of the API's views (docs/api.md "Images").
import { EngineError, type Design, type Part } from '../contract.ts';
import type { AnalyzeOptions } from '../analyze.ts';
import type { Refusal, Rigid, SheetAnalysis, Solid, TubeAnalysis, Vec3 } from '../geometry/model.ts';
import { writeGlb } from './glb.ts';
import { formedMesh, flatMesh } from './meshes.ts';
import { readExactSolids, matchSolid, writeTransformedStep, writeFlatStep, type ExactModel } from './occt-exact.ts';
import { expandKinds, FLAT_ONLY_KINDS, type FileKind } from './kinds.ts';
import { VIEWS, formedView, flatView, tubeFlatView, hasUnrolledWall, type ViewName } from './views.ts';
import { sceneToSvg } from './svg.ts';
import { sceneToPng } from './png.ts';
import type { Scene } from './scene.ts';
import { layoutLabels } from './labels.ts';

function laidOut(scene: Scene): Scene { layoutLabels(scene); return scene; }

export interface ModelPart {
  part: Part;
  solid: Solid;
  analysis: SheetAnalysis | TubeAnalysis | Refusal;
  /** file coordinates -> normalized frame; defaults to the analysis frame */
  frame?: Rigid;
}

export interface ProductionFileOptions {
  /** part ids to write; default every part */
  partIds?: string[];
  /** kinds or groups ('images', 'svg', 'png', 'production'); default all */
  kinds?: string[];
  /** image size in pixels */
  imageWidth?: number;
  imageHeight?: number;
  /** part id -> its bend table as rows of text (dfm bendTablesOf): the bend-lines DXF carries it */
  bendTables?: Record<string, string[][]>;
  /** called after each file with the time it took, for the bench */
  onFile?: (event: { partId: string; kind: FileKind; ms: number; bytes: number }) => void;
}

export type ProductionFiles = Record<string, Partial<Record<FileKind, Uint8Array>>>;

/** Frame of a part no recogniser accepted: unrotated, bounding box corner at the origin. */
function fallbackFrame(solid: Solid): Rigid {
  const m = solid.bbox.min;
  return { rotation: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], translation: [-m[0], -m[1], -m[2]] };
}

export function frameOf(mp: ModelPart): Rigid {
  return mp.frame ?? (mp.analysis.kind === 'refused' ? fallbackFrame(mp.solid) : mp.analysis.frame);
}

/** Volume-weighted centroid of a closed outward mesh, mm */
export function meshCentroid(solid: Solid): Vec3 {
  const p = solid.points, t = solid.triangles;
  let v6 = 0, cx = 0, cy = 0, cz = 0;
  for (let i = 0; i < t.length; i += 3) {
    const a = 3 * t[i], b = 3 * t[i + 1], c = 3 * t[i + 2];
    const d = p[a] * (p[b + 1] * p[c + 2] - p[b + 2] * p[c + 1]) - p[a + 1] * (p[b] * p[c + 2] - p[b + 2] * p[c]) + p[a + 2] * (p[b] * p[c + 1] - p[b + 1] * p[c]);
    v6 += d;
    cx += d * (p[a] + p[b] + p[c]); cy += d * (p[a + 1] + p[b + 1] + p[c + 1]); cz += d * (p[a + 2] + p[b + 2] + p[c + 2]);
  }
  if (v6 === 0) return [0, 0, 0];
  return [cx / (4 * v6), cy / (4 * v6), cz / (4 * v6)];
}

const enc = new TextEncoder();

/**
 * Writes the requested files of each part. `stepBytes` is the source file the model was analyzed
 * from: the exact STEP is taken from it, never from triangles.
 */
export async function productionFilesForModel(stepBytes: Uint8Array, parts: ModelPart[], options: ProductionFileOptions = {}): Promise<ProductionFiles> {
  let wanted: Set<FileKind>;
  try { wanted = expandKinds(options.kinds); } catch (err) {
    throw new EngineError('invalid_configuration', `unknown production file kind '${(err as Error).message}'`);
  }
  const selected = options.partIds ? parts.filter((p) => options.partIds!.includes(p.part.id)) : parts;
  if (options.partIds) {
    const known = new Set(parts.map((p) => p.part.id));
    const missing = options.partIds.filter((id) => !known.has(id));
    if (missing.length) throw new EngineError('invalid_configuration', `no part with id ${missing.join(', ')} in this model`);
  }
  const imageSize = { width: options.imageWidth ?? 800, height: options.imageHeight ?? 600 };
  let exact: ExactModel | null = null;
  const out: ProductionFiles = {};
  try {
    for (const mp of selected) {
      const files: Partial<Record<FileKind, Uint8Array>> = {};
      out[mp.part.id] = files;
      const frame = frameOf(mp);
      const sheet = mp.analysis.kind === 'sheet' ? mp.analysis : null;
      // a tube's flat image is its unrolled wall; its other flat files have no meaning
      const tubeWall = mp.analysis.kind === 'tube' && (wanted.has('image_flat_svg') || wanted.has('image_flat_png')) && hasUnrolledWall(mp.analysis) ? mp.analysis : null;
      const emit = async (kind: FileKind, make: () => Promise<Uint8Array> | Uint8Array): Promise<void> => {
        if (!wanted.has(kind)) return;
        if (FLAT_ONLY_KINDS.has(kind) && !sheet && !(tubeWall && (kind === 'image_flat_svg' || kind === 'image_flat_png'))) return;
        const t0 = performance.now();
        const bytes = await make();
        files[kind] = bytes;
        options.onFile?.({ partId: mp.part.id, kind, ms: performance.now() - t0, bytes: bytes.byteLength });
      };

      // an open shell (refused open_shell) has no exact solid to write
      const openShell = mp.analysis.kind === 'refused' && mp.analysis.reason === 'open_shell';
      if (!openShell) await emit('production_step', async () => {
        exact ??= await readExactSolids(stepBytes);
        const target = { volume: mp.solid.volume, centroid: meshCentroid(mp.solid), bboxMin: mp.solid.bbox.min, bboxMax: mp.solid.bbox.max };
        const match = matchSolid(exact, target);
        if (!match) throw new EngineError('analysis_failed', `part ${mp.part.id}: no exact solid of the STEP file matches the analyzed solid`);
        return writeTransformedStep(match, frame, mp.part.name);
      });
      await emit('production_model', () => writeGlb(formedMesh(mp.solid, frame), { name: mp.part.name }));
      if (sheet) {
        await emit('production_flat_step', async () => (await writeFlatStep(sheet.flat.outer, sheet.flat.inner, sheet.thickness, `${mp.part.name} flat`)).step);
        await emit('production_flat_model', async () => writeGlb(await flatMesh(sheet.flat, sheet.thickness), { name: `${mp.part.name} flat` }));
        const dxf = await import('../dxf/index.ts');
        await emit('production_dxf', () => enc.encode(dxf.flatToDxf(sheet.flat, { bendLines: false })));
        const table = options.bendTables?.[mp.part.id];
        await emit('production_bend_lines_dxf', () => enc.encode(dxf.flatToDxf(sheet.flat, { bendLines: true, ...(table ? { bendTable: table } : {}) })));
      }
      for (const view of VIEWS) {
        const svgKind = `image_${view}_svg` as FileKind, pngKind = `image_${view}_png` as FileKind;
        if (!wanted.has(svgKind) && !wanted.has(pngKind)) continue;
        if (view === 'flat' && !sheet && !tubeWall) continue;
        let scene: Scene | null = null;
        const sceneOf = (): Scene => (scene ??= laidOut(view === 'flat'
          ? (sheet ? flatView(sheet.flat, sheet, mp.part.name, imageSize) : tubeFlatView(tubeWall!, mp.part.name, imageSize))
          : formedView({ solid: mp.solid, frame, analysis: mp.analysis.kind === 'refused' ? null : mp.analysis }, view as Exclude<ViewName, 'flat'>, imageSize)));
        await emit(svgKind, () => enc.encode(sceneToSvg(sceneOf())));
        await emit(pngKind, () => sceneToPng(sceneOf()));
      }
    }
  } finally {
    (exact as ExactModel | null)?.dispose();
  }
  return out;
}

export interface GenerateOptions extends ProductionFileOptions {
  /** explicit K-factor for the flat pattern; default from the material / detected r/t */
  kFactor?: number;
  /** explicit K-factor by part id (each part's configured material); wins over `kFactor` */
  kFactorByPart?: Record<string, number>;
}

/** One analysis of the STEP file giving both its design and its parts' production files (the CLI's
 * `analyze --out`): the file is imported once. */
export async function analyzeWithFiles(stepBytes: Uint8Array, options: AnalyzeOptions & ProductionFileOptions = {}): Promise<{ design: Design; files: ProductionFiles }> {
  // loaded on demand: a caller holding an analyzed model uses productionFilesForModel directly
  const { analyzeModel } = await import('../analyze.ts');
  const model = await analyzeModel(stepBytes, options);
  return { design: model.design, files: await productionFilesForModel(stepBytes, model.parts, options) };
}

/** Analyzes the STEP file and writes the production files of its parts. One import serves every part,
 * each flat with its own K: an assembly costs one analysis, not one per part. */
export async function generateProductionFiles(stepBytes: Uint8Array, options: GenerateOptions = {}): Promise<ProductionFiles> {
  return (await analyzeWithFiles(stepBytes, options)).files;
}
