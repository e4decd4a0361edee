// Files of a whole design (rather than of one part's production set), made from the source STEP:
// the model of every solid in file coordinates, the design image, a part's own solid as uploaded.
// Pure data in / bytes out, so the service can run it in the worker pool.
import { EngineError } from './contract.ts';
import { analyzeModel, type AnalyzedModel } from './analyze.ts';
import { productionFilesForModel } from './files/generate.ts';
import { writeGlb } from './files/glb.ts';
import type { Rigid } from './geometry/model.ts';

export interface DesignFileOptions {
  /** `model.glb`, `image-<view>-<width>.<svg|png>` or `parts/<part id>/source.step` */
  name: string;
  /** the design's file name (model names) */
  fileName?: string;
}

const IDENTITY: Rigid = { rotation: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], translation: [0, 0, 0] } as Rigid;
const IMAGE = /^image-([a-z]+)-(\d+)\.(svg|png)$/;
/** Images are 4:3. */
const IMAGE_ASPECT = 0.75;

/** Whether designFile() makes a file of this name. */
export function isDesignFileName(name: string): boolean {
  return name === 'model.glb' || IMAGE.test(name) || /^parts\/[^/]+\/source\.step$/.test(name);
}

/** The file's bytes, or null when the design has no such file (unknown part, image view). */
export async function designFile(stepBytes: Uint8Array, options: DesignFileOptions): Promise<Uint8Array | null> {
  const model = await analyzeModel(stepBytes, { fileName: options.fileName });
  return designFileOf(stepBytes, model, options.name);
}

export async function designFileOf(stepBytes: Uint8Array, model: AnalyzedModel, name: string): Promise<Uint8Array | null> {
  if (name === 'model.glb') return designGlb(model);
  const img = IMAGE.exec(name);
  if (img) {
    // The design image shows its largest part (a whole-assembly view is not drawn yet).
    const largest = [...model.parts].sort((a, b) => b.solid.volume - a.solid.volume)[0];
    if (!largest) return null;
    const kind = `image_${img[1]}_${img[3]}`;
    const width = Number(img[2]);
    try {
      const files = await productionFilesForModel(stepBytes, model.parts, { partIds: [largest.part.id], kinds: [kind], imageWidth: width, imageHeight: Math.round(width * IMAGE_ASPECT) });
      return (files[largest.part.id] as Record<string, Uint8Array | undefined> | undefined)?.[kind] ?? null;
    } catch (err) {
      if (err instanceof EngineError && err.code === 'invalid_configuration') return null; // a view the writer does not draw
      throw err;
    }
  }
  const src = /^parts\/([^/]+)\/source\.step$/.exec(name);
  if (src) {
    const mp = model.parts.find((p) => p.part.id === src[1]);
    if (!mp) return null;
    // The part's own geometry as uploaded: the exact solid in file coordinates.
    const files = await productionFilesForModel(stepBytes, [{ ...mp, frame: IDENTITY }], { partIds: [mp.part.id], kinds: ['production_step'] });
    return files[mp.part.id]?.production_step ?? null;
  }
  return null;
}

/** Every solid of the file, in file coordinates, as one mesh. */
function designGlb(model: AnalyzedModel): Uint8Array {
  let nPos = 0, nIdx = 0;
  for (const s of model.solids) { nPos += s.points.length; nIdx += s.triangles.length; }
  const positions = new Float64Array(nPos);
  const indices = new Uint32Array(nIdx);
  let p = 0, q = 0;
  for (const s of model.solids) {
    const base = p / 3;
    positions.set(s.points, p);
    for (let i = 0; i < s.triangles.length; i++) indices[q + i] = s.triangles[i] + base;
    p += s.points.length; q += s.triangles.length;
  }
  return writeGlb({ positions, indices }, { name: model.design.name });
}
