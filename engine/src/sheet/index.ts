// Sheet-metal recognition and unfolding. Interface fixed; implementation in progress (issue 2).
import type { Solid, SheetAnalysis, Refusal } from '../geometry/model.ts';

export interface SheetOptions { /** explicit K-factor; default from the detected r/t */ kFactor?: number }

export function recognizeSheet(solid: Solid, options: SheetOptions = {}): SheetAnalysis | Refusal {
  void solid; void options;
  return { kind: 'refused', reason: 'not_unfoldable', message: 'sheet recognition not built yet', process: 'sheet_metal' };
}
