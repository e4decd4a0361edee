// Each part of a DFM report states the flat it was checked (and priced) with: `flat_pattern`, with
// the K-factor used, from the design as configured (its flats re-computed for the materials' K).
// One function for the service and the CLI, so both print the same report.
import type { Design } from '../contract.ts';

export function withFlatsUsed<R extends { parts: ReadonlyArray<{ part_id: string }> }>(report: R, design: Design): R {
  const flats = new Map(design.parts.map((p) => [p.id, p.flat_pattern]));
  return { ...report, parts: report.parts.map((p) => ({ ...p, flat_pattern: flats.get(p.part_id) ?? null })) };
}
