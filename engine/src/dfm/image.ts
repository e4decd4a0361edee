// The DFM image of one part as a file: the STEP analysed (or an analyzed model) and the part's
// drawing (svg.ts) as SVG, or that SVG rendered as PNG, so the two formats show the same drawing.
// Several parts' images come from one analysis (dfmImages): an assembly is imported once, not once
// per part.
import { analyzeModel, type AnalyzedModel } from '../analyze.ts';
import { svgToPng } from '../files/png.ts';
import { VIEWS } from '../files/views.ts';
import { dfmImageSvg, type DfmDrawingOptions } from './svg.ts';

export { dfmImageSvg } from './svg.ts';

/** One part of a DFM image request: its id, the report's findings and the K-factor its flat used. */
export interface DfmImagePart {
  partId: string;
  issues: DfmDrawingOptions['issues'];
  /** the K-factor the report's flat used */
  kFactor?: number | null;
}

export interface DfmImageOptions extends DfmDrawingOptions, DfmImagePart {
  format: 'svg' | 'png';
  /** the design's file name */
  fileName?: string;
}

/** The images of several parts, all in the same view, format and width. */
export interface DfmImagesOptions extends Omit<DfmImageOptions, keyof DfmImagePart> {
  parts: DfmImagePart[];
}

export async function dfmImage(stepBytes: Uint8Array, options: DfmImageOptions): Promise<Uint8Array | null> {
  const { partId, issues, kFactor, ...common } = options;
  return (await dfmImages(stepBytes, { ...common, parts: [{ partId, issues, kFactor }] }))[0];
}

/** Each part's image (null for an unknown part or view), in the order asked, from one analysis in
 * which each part's flat uses its own K-factor (a part's flat depends on its K-factor alone). */
export async function dfmImages(stepBytes: Uint8Array, options: DfmImagesOptions): Promise<(Uint8Array | null)[]> {
  const { parts, ...common } = options;
  const kFactorByPart: Record<string, number> = {};
  for (const p of parts) if (p.kFactor) kFactorByPart[p.partId] = p.kFactor;
  const model = await analyzeModel(stepBytes, { fileName: options.fileName, ...(Object.keys(kFactorByPart).length ? { kFactorByPart } : {}) });
  const out: (Uint8Array | null)[] = [];
  for (const p of parts) out.push(await dfmImageOf(model, { ...common, ...p }));
  return out;
}

export async function dfmImageOf(model: AnalyzedModel, options: DfmImageOptions): Promise<Uint8Array | null> {
  const mp = model.parts.find((p) => p.part.id === options.partId);
  if (!mp || !(VIEWS as readonly string[]).includes(options.view)) return null;
  const svg = dfmImageSvg(mp, options);
  return options.format === 'png' ? svgToPng(svg) : new TextEncoder().encode(svg);
}
