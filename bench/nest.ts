// Nesting (docs/nesting.md): 200 pieces of 20 outlines (rectangles, L-shapes, rings, triangles) on a
// 44 x 30 in sheet within a 2 s budget, against the same pieces nested as their bounding boxes in the
// same run; and the corpus's real sheet parts quoted at 1, 10 and 100: the nest's material price
// against the bounding-box price (the nest must never be above it).
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { analyze, defaultCatalog, indexCatalog, nest, nestMaterials, pricePart, type NestItem, type NestResult, type Part, type RateCard } from '@kerf/engine';

type P = [number, number];
const r2 = (x: number): number => Math.round(x * 100) / 100;
const r3 = (x: number): number => Math.round(x * 1000) / 1000;

const circle = (cx: number, cy: number, r: number, n: number): P[] => Array.from({ length: n }, (_, i) => [cx + r * Math.cos((2 * Math.PI * i) / n), cy + r * Math.sin((2 * Math.PI * i) / n)] as P);

/** 20 outlines, 10 pieces each. */
function syntheticItems(): NestItem[] {
  return Array.from({ length: 20 }, (_, i) => {
    const w = 40 + ((i * 37) % 160), h = 30 + ((i * 53) % 110);
    const kind = i % 4;
    const outline = kind === 0 ? { outer: [[0, 0], [w, 0], [w, h], [0, h]] as P[], holes: [] }
      : kind === 1 ? { outer: [[0, 0], [w, 0], [w, h / 3], [w / 3, h / 3], [w / 3, h], [0, h]] as P[], holes: [] }
      : kind === 2 ? { outer: circle(w / 2, w / 2, w / 2, 48), holes: [circle(w / 2, w / 2, w / 3, 48)] }
      : { outer: [[0, 0], [w, 0], [w / 2, h]] as P[], holes: [] };
    return { id: `p${i}`, outline, count: 10 };
  });
}

function boxOf(it: NestItem): NestItem {
  const xs = it.outline.outer.map((p) => p[0]), ys = it.outline.outer.map((p) => p[1]);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  return { ...it, outline: { outer: [[x0, y0], [x1, y0], [x1, y1], [x0, y1]], holes: [] } };
}

const SHEET = { length_mm: 1117.6, width_mm: 762 };
const charged = (r: NestResult): number => (r.sheets.length - 1) * r.sheet.length_mm * r.sheet.width_mm + (r.sheets.at(-1) ? r.sheets.at(-1)!.used_length_mm * r.sheets.at(-1)!.used_width_mm : 0);

function synthetic(budgetMs: number): object {
  const items = syntheticItems();
  const run = (its: NestItem[], extra: object) => {
    const t0 = performance.now();
    const r = nest({ items: its, sheet: SHEET, spacing_mm: 6, margin_mm: 10, ...extra });
    return { ms: r2(performance.now() - t0), r };
  };
  const first = run(items, { max_evaluations: 1 });
  const budget = run(items, { max_evaluations: 1000, time_budget_ms: budgetMs });
  const boxes = run(items.map(boxOf), { max_evaluations: 1000, time_budget_ms: budgetMs });
  const util = (x: NestResult): number => x.parts_area_mm2 / charged(x);
  const trueArea = budget.r.parts_area_mm2;
  return {
    pieces: items.reduce((a, i) => a + i.count, 0), outlines: items.length, budget_ms: budgetMs,
    first_nest_ms: first.ms, first_nest_sheets: r3(charged(first.r) / (SHEET.length_mm * SHEET.width_mm)),
    budget_run_ms: budget.ms, evaluations: budget.r.evaluations, stopped_by: budget.r.stopped_by,
    sheets: r3(charged(budget.r) / (SHEET.length_mm * SHEET.width_mm)), utilization: r3(util(budget.r)),
    boxes_sheets: r3(charged(boxes.r) / (SHEET.length_mm * SHEET.width_mm)), boxes_utilization: r3(trueArea / charged(boxes.r)),
    // below 1: the true-shape nest charges less sheet than nesting the boxes
    charged_ratio_to_boxes: r3(charged(budget.r) / charged(boxes.r)),
  };
}

/** The corpus's sheet parts at 1, 10 and 100: the nest's material cents against the boxes'. */
async function corpus(root: string, quick: boolean): Promise<object> {
  const dir = join(root, '../shared/corpus/real');
  if (!existsSync(dir)) return { skipped: 'no corpus' };
  const catalog = defaultCatalog();
  const ix = indexCatalog(catalog);
  const steels = catalog.materials.filter((m) => m.type === 'mild_steel');
  const rows: object[] = [];
  let above = 0, aboveLastFraction = 0;
  const lastFraction: RateCard = { ...catalog.rates, nest_charge: 'last_fraction' };
  const files = readdirSync(dir).filter((f) => /\.(step|stp)$/i.test(f)).sort();
  for (const f of quick ? files.slice(0, 4) : files) {
    let parts: Part[];
    // with each flat's cut contours, as the service keeps them: the corpus nested as its true shapes
    try { parts = (await analyze(new Uint8Array(readFileSync(join(dir, f))), { fileName: f, flatOutlines: true })).parts; } catch { continue; }
    const sheet = parts.filter((p) => p.manufacturable && p.flat_pattern && p.detected_thickness_mm);
    if (!sheet.length) continue;
    for (const q of [1, 10, 100]) {
      const pieces = sheet.map((part) => {
        const t = part.detected_thickness_mm!;
        const material = [...steels].sort((a, b) => Math.abs(a.thickness_mm - t) - Math.abs(b.thickness_mm - t))[0];
        return { key: part.id, part, material, count: q * part.instance_count };
      });
      const t0 = performance.now();
      const nested = nestMaterials(pieces, catalog.rates);
      const ms = performance.now() - t0;
      const whole = nestMaterials(pieces, lastFraction);
      let nestCents = 0, boxCents = 0, lastFractionCents = 0;
      for (const p of pieces) {
        const box = pricePart({ part: p.part, stock: { kind: 'sheet', material: p.material }, config: null, finish: null, color: null, quantity: p.count }, catalog, ix).breakdown.find((b) => b.type === 'material')!.unit_amount_cents;
        boxCents += box * p.count;
        nestCents += Math.round(nested.unitCents.get(p.key) ?? box) * p.count;
        lastFractionCents += Math.round(whole.unitCents.get(p.key) ?? box) * p.count;
      }
      if (nestCents > boxCents) above++;
      if (lastFractionCents > boxCents) aboveLastFraction++;
      const n = nested.nestOf.get(pieces[0].key);
      rows.push({ file: f, quantity: q, pieces: pieces.reduce((a, p) => a + p.count, 0), nest_ms: r2(ms), nest_material_cents: nestCents, box_material_cents: boxCents, ratio: r3(nestCents / boxCents), last_fraction_ratio: r3(lastFractionCents / boxCents), sheets: n?.sheets ?? null, utilization: n?.utilization ?? null });
    }
  }
  return { rows, nest_above_box: above, last_fraction_above_box: aboveLastFraction };
}

export async function benchNest(root: string, quick: boolean): Promise<object> {
  const out = { synthetic: synthetic(2000), corpus: await corpus(root, quick) };
  console.log(JSON.stringify(out.synthetic));
  for (const r of (out.corpus as { rows?: object[] }).rows ?? []) console.log(JSON.stringify(r));
  const c = out.corpus as { nest_above_box?: number; last_fraction_above_box?: number; rows?: object[] };
  console.log(`corpus quotes (of ${c.rows?.length ?? 0}) whose nest material is above the boxes': ${c.nest_above_box} (whole sheets and the last by fraction: ${c.last_fraction_above_box})`);
  return out;
}
