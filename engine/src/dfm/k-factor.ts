// The K-factor a configured material gives a part (contract: the flat pattern uses the material's
// K-factor when one is configured), from the material's table at the part's r/t.
import type { Design, Part } from '../contract.ts';
import type { Catalog, Material } from '../catalog/types.ts';
import { indexCatalog } from '../catalog/index.ts';
import { interpolateKFactor } from '../sheet/kfactor.ts';
import { madeRadius } from './hole-checks.ts';
import { effectiveSelections, parseConfiguration } from './configuration.ts';

/** K of `material` for `part` at its first bend's made radius; null for a part without bends. */
export function partKFactor(part: Part, material: Material): number | null {
  if (part.bends.length === 0) return null;
  return Number(interpolateKFactor(material.k_factor_table, madeRadius(part.bends[0], material) / material.thickness_mm).toFixed(4));
}

/**
 * The one K-factor the configured materials give every bent sheet part of the design, or null when
 * no bent part has a known material or the parts disagree (analysis takes a single K per design).
 */
export function designKFactor(design: Design, configuration: unknown, catalog: Catalog): number | null {
  const config = parseConfiguration(configuration);
  const ix = indexCatalog(catalog);
  const ks = new Set<number>();
  for (const part of design.parts) {
    if (part.suggested_process !== 'sheet_metal' || part.bends.length === 0) continue;
    const id = effectiveSelections(config, part.id).selections.material_id;
    const m = id ? ix.materials.get(id) : undefined;
    if (!m) return null;
    ks.add(partKFactor(part, m)!);
  }
  return ks.size === 1 ? [...ks][0] : null;
}
