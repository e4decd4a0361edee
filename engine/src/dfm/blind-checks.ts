// Blind features (partial-depth work) against what the shop makes. A laser cuts through; the secondary
// operations the catalog offers (countersinks, tapping) are made after cutting, everything else the
// model asks for cannot be made as drawn: a blocking finding per kind that says how to fix the model.
import type { BlindFeatureInfo, Part } from '../contract.ts';
import type { PartConfiguration } from './configuration.ts';

export interface BlindFinding {
  code: string; message: string; severity: 'blocking' | 'warning'; hole_id: number | null; details: Record<string, unknown>;
}

/** The finding code of each kind (docs/dfm-rules.md "DFM rules"; adapters/usecases error registry). */
const BLIND_FEATURE_CODES = {
  counterbore: 'counterbore_not_supported',
  blind_hole: 'blind_hole_not_supported',
  pocket: 'blind_feature',
  engraving: 'engraving_not_supported',
  edge_chamfer: 'edge_chamfer_not_supported',
  edge_fillet: 'edge_fillet_not_supported',
  thread: 'modelled_thread_needs_tap',
} as const satisfies Record<BlindFeatureInfo['kind'], string>;

const mm = (x: number): string => `${Number(x.toFixed(2))} mm`;

function advice(f: BlindFeatureInfo, part: Part): string {
  const at = `at (${f.center_mm.map((x) => Number(x.toFixed(1))).join(', ')}) of the flat`;
  const hole = f.hole_id !== null ? `hole ${f.hole_id}` : 'its hole';
  switch (f.kind) {
    case 'counterbore': {
      const d = part.holes.find((h) => h.id === f.hole_id)?.diameter_mm;
      return `${hole} has a counterbore Ø${mm(f.size_mm)} x ${mm(f.depth_mm)} deep (${f.side} side); a laser cuts straight through and cannot make it. Make it a plain through hole${d ? ` (Ø${mm(d)})` : ''}, or a countersink (82 or 90 degrees) if it seats a screw head.`;
    }
    case 'blind_hole':
      return `A blind hole Ø${mm(f.size_mm)}, ${mm(f.depth_mm)} deep (${f.side} side) ${at} does not go through; a laser cannot stop part-way. Make it a through hole or remove it from the model.`;
    case 'pocket':
      return `A recess ${mm(f.size_mm)} x ${mm(f.length_mm ?? f.size_mm)}, ${mm(f.depth_mm)} deep (${f.side} side) ${at} is milled work; a laser cuts through. Cut it through as a window or remove it (machine it after cutting elsewhere).`;
    case 'engraving':
      return `Engraving ${mm(f.depth_mm)} deep (${f.side} side) ${at} cannot be cut by the laser. Remove it from the model (mark the part another way) or cut it through as a stencil.`;
    case 'edge_chamfer':
      return `Edges are chamfered ${mm(f.size_mm)} x ${mm(f.depth_mm)} (${f.side} side, ${mm(f.length_mm ?? 0)} of edge); a laser cuts square edges. Remove the chamfer from the model (deburring is standard).`;
    case 'edge_fillet':
      return `Edges are rounded R ${mm(f.depth_mm)} (${f.side} side, ${mm(f.length_mm ?? 0)} of edge); a laser cuts square edges. Remove the edge fillet from the model (deburring is standard).`;
    case 'thread':
      return `${hole} carries a modelled thread (Ø${mm(f.size_mm)} major); the laser cuts the tap drill hole. Configure a tap for ${hole} (configuration taps[]) so it is threaded after cutting, or remove the thread from the model.`;
  }
}

export function blindFeatureFindings(part: Part, cfg: PartConfiguration | null): BlindFinding[] {
  const tapped = new Set((cfg?.taps ?? []).map((t) => t.hole_id));
  return (part.blind_features ?? [])
    // a modelled thread on a hole that takes a configured tap is that secondary operation
    .filter((f) => !(f.kind === 'thread' && f.hole_id !== null && tapped.has(f.hole_id)))
    .map((f) => ({
      code: BLIND_FEATURE_CODES[f.kind], severity: 'blocking' as const, hole_id: f.hole_id, message: `Part ${part.name}: ${advice(f, part)}`,
      details: { feature_id: f.id, kind: f.kind, center_mm: f.center_mm, size_mm: f.size_mm, length_mm: f.length_mm, depth_mm: f.depth_mm, side: f.side },
    }));
}
