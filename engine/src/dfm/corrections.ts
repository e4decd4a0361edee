// Whether the production files differ from the model by a correction the engine applies on its own
// (production_files.corrections_applied, docs/api.md "DFM reports"), read from the part's warnings.
import type { Warning } from '../contract.ts';
import { EXTRUSION_PRE_HOLE_WORDS } from '../sheet/features.ts';

/**
 * Warnings that report an automatic correction of what is cut or bent:
 * - sharp_bend (analysis) and sharp_bend_radius_applied (DFM): a bend modelled sharp is unfolded and
 *   made with an inner radius the model does not have;
 * - closed_corner: flanges that meet at a closed corner are cut apart at the seam, so corner
 *   material of the model is not in the flat;
 * - formed_feature_ignored of an extruded hole: the flat cuts the pre-hole computed from the collar's
 *   volume, not the modelled bore.
 * Not corrections: a feature left out of the flat and made after cutting as modelled (a louver,
 * pressed-in hardware), a countersink cut at its through diameter (the cone is the countersinking),
 * and tap_hole_cut_at_drill_size (the production files cut the hole as modelled).
 */
const CORRECTION_CODES: ReadonlySet<string> = new Set(['sharp_bend', 'sharp_bend_radius_applied', 'closed_corner']);

export function isAutomaticCorrection(w: Warning): boolean {
  if (CORRECTION_CODES.has(w.code)) return true;
  return w.code === 'formed_feature_ignored' && w.message.includes(EXTRUSION_PRE_HOLE_WORDS);
}
