// `--images` of kerf dfm and kerf quote: each DFM report part's inline SVG is the drawing the service
// serves (the engine's dfmImage: findings on the part's real flat), not the report's own sketch
// from the Part alone (its flat's enclosing rectangle with round holes).
import { analyzeModel, dfmImageOf, type DfmImageOptions } from '@kerf/engine';

interface ReportPart { part_id: string; issues?: unknown[]; k_factor?: number | null; image_svg?: string }
interface Report { configuration?: unknown; parts: ReportPart[] }

/** The DFM reports in an output (a report, or a quote with one per item). */
function reportsIn(value: unknown, out: Report[] = []): Report[] {
  if (!value || typeof value !== 'object') return out;
  if (Array.isArray(value)) { for (const v of value) reportsIn(v, out); return out; }
  const o = value as Record<string, unknown>;
  if (Array.isArray(o.parts) && o.parts.some((p) => p !== null && typeof p === 'object' && 'image_svg' in p)) out.push(o as unknown as Report);
  else for (const v of Object.values(o)) reportsIn(v, out);
  return out;
}

export async function withPartDrawings<T>(output: T, file: { file_name: string; bytes: Uint8Array }): Promise<T> {
  for (const report of reportsIn(output)) {
    // the flats of the report's own K-factors (the configured materials')
    const kFactorByPart: Record<string, number> = {};
    for (const p of report.parts) if (typeof p.k_factor === 'number') kFactorByPart[p.part_id] = p.k_factor;
    const model = await analyzeModel(file.bytes, { fileName: file.file_name, kFactorByPart });
    for (const p of report.parts) {
      const svg = await dfmImageOf(model, { partId: p.part_id, view: 'flat', format: 'svg', issues: (p.issues ?? []) as DfmImageOptions['issues'], configuration: report.configuration });
      if (svg) p.image_svg = new TextDecoder().decode(svg);
    }
  }
  return output;
}
