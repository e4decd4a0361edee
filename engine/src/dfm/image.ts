// The DFM image of one part as a file: the STEP analysed (or an analyzed model) and the part's
// drawing (svg.ts) as SVG, or that SVG rendered as PNG, so the two formats show the same drawing.
import { analyzeModel, type AnalyzedModel } from '../analyze.ts';
import { svgToPng } from '../files/png.ts';
import { VIEWS } from '../files/views.ts';
import { dfmImageSvg, type DfmDrawingOptions } from './svg.ts';

export { dfmImageSvg } from './svg.ts';

export interface DfmImageOptions extends DfmDrawingOptions {
  partId: string;
  format: 'svg' | 'png';
  /** the K-factor the report's flat used */
  kFactor?: number | null;
  /** the design's file name */
  fileName?: string;
}

export async function dfmImage(stepBytes: Uint8Array, options: DfmImageOptions): Promise<Uint8Array | null> {
  const model = await analyzeModel(stepBytes, { fileName: options.fileName, ...(options.kFactor ? { kFactorByPart: { [options.partId]: options.kFactor } } : {}) });
  return dfmImageOf(model, options);
}

export async function dfmImageOf(model: AnalyzedModel, options: DfmImageOptions): Promise<Uint8Array | null> {
  const mp = model.parts.find((p) => p.part.id === options.partId);
  if (!mp || !(VIEWS as readonly string[]).includes(options.view)) return null;
  const svg = dfmImageSvg(mp, options);
  return options.format === 'png' ? svgToPng(svg) : new TextEncoder().encode(svg);
}
