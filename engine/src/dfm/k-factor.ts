// The K-factor a configured material gives a part (a flat uses its material's K-factor when one is
// configured: docs/geometry.md "Bend allowance and K-factor"), from the material's table at the part's r/t.
import type { Design, Part } from '../contract.ts';
import type { Catalog, Material } from '../catalog/types.ts';
import { indexCatalog } from '../catalog/index.ts';
import { interpolateKFactor } from '../sheet/kfactor.ts';
import { madeRadius } from './hole-checks.ts';
import { effectiveSelections, parseConfiguration } from './configuration.ts';
import { thicknessTolerance } from './rules.ts';

/** K of `material` for `part` at its first bend's made radius; null for a part without bends. */
export function partKFactor(part: Part, material: Material): number | null {
  if (part.bends.length === 0) return null;
  return Number(interpolateKFactor(material.k_factor_table, madeRadius(part.bends[0], material) / material.thickness_mm).toFixed(4));
}

/** K-factors closer than this give the same flat to well under 0.01 mm. */
const K_FACTOR_SAME = 1e-4;

/**
 * Per bent sheet part whose configured material gives a K-factor other than the one its flat was
 * computed with: part id -> that K (for analyze's `kFactorByPart`). Empty when every flat already
 * uses its material's K or no material is configured. A malformed configuration gives {}: the DFM
 * report is where it is refused, with the field named.
 */
export function materialKFactors(design: Design, configuration: unknown, catalog: Catalog): Record<string, number> {
  let config;
  try { config = parseConfiguration(configuration); } catch { return {}; }
  const ix = indexCatalog(catalog);
  const out: Record<string, number> = {};
  for (const part of design.parts) {
    if (part.suggested_process !== 'sheet_metal' || part.bends.length === 0 || !part.flat_pattern) continue;
    const id = effectiveSelections(config, part.id).selections.material_id;
    const m = id ? ix.materials.get(id) : undefined;
    if (!m || !m.bendable) continue;
    // a material of another thickness blocks the part in DFM: no flat worth recomputing
    if (part.detected_thickness_mm !== null && Math.abs(part.detected_thickness_mm - m.thickness_mm) > thicknessTolerance(m.thickness_mm)) continue;
    const k = partKFactor(part, m);
    if (k !== null && Math.abs(k - part.flat_pattern.k_factor) > K_FACTOR_SAME) out[part.id] = k;
  }
  return out;
}
