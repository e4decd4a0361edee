// Adds the flat-pattern facts DFM uses to each bend of an analyzed design: the bend's centre line
// in the flat frame (`line_mm`, for the annotated image) and the straight flange length on each side
// (`flange_lengths_mm`, for the minimum-flange rule). Pure: returns a new Design.
import type { BendInfo, Design } from '../contract.ts';
import type { SheetAnalysis } from '../geometry/model.ts';
import { flangeLengths } from './flange.ts';

/** Output rounding, like analyze(): far below every DFM tolerance, mm. */
const DECIMALS = 6;
const round = (x: number): number => Math.round(x * 10 ** DECIMALS) / 10 ** DECIMALS;

/** The minimum an AnalyzedModel must offer: each part and, for sheet parts, its analysis. */
export interface BendGeometrySource {
  design: Design;
  parts: Array<{ part: { id: string }; analysis: { kind: string } }>;
}

export function withBendGeometry(model: BendGeometrySource): Design {
  const byPart = new Map<string, SheetAnalysis>();
  for (const p of model.parts) if (p.analysis.kind === 'sheet') byPart.set(p.part.id, p.analysis as SheetAnalysis);
  return {
    ...model.design,
    parts: model.design.parts.map((part) => {
      const a = byPart.get(part.id);
      if (!a || part.bends.length === 0) return part;
      const zones = a.flat.bendLines.map((bl) => {
        const b = a.bends.find((x) => x.id === bl.bendId);
        const allowance = b ? (b.angleDegrees * Math.PI / 180) * (b.innerRadius + a.flat.kFactor * a.thickness) : 0;
        return { index: bl.bendId, line: [bl.a, bl.b] as [[number, number], [number, number]], allowance };
      });
      const fl = flangeLengths(a.flat.outer, zones);
      const bends: BendInfo[] = part.bends.map((b) => {
        const z = zones.find((x) => x.index === b.id);
        const f = fl.get(b.id);
        return {
          ...b,
          line_mm: z ? [[round(z.line[0][0]), round(z.line[0][1])], [round(z.line[1][0]), round(z.line[1][1])]] : b.line_mm ?? null,
          flange_lengths_mm: f ? [round(f[0]), round(f[1])] : b.flange_lengths_mm ?? null,
        };
      });
      return { ...part, bends };
    }),
  };
}
