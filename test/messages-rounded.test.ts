// Numbers in messages are rounded for people (#19.6): "0.79 mm", never "0.7873999999999987 mm".
// Every message of the designs and DFM reports of a spread of fixtures (sheets with sharp bends,
// inch gauges, tubes, assemblies) under mismatched and matching materials.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyze, defaultCatalog, dfm } from '@kerf/engine';

const ROOT = fileURLToPath(new URL('../fixtures/', import.meta.url));
/** More than three decimals: a float printed as computed. */
const UNROUNDED = /\d\.\d{4,}/;

function messages(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) messages(v, out);
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if ((k === 'message' || k.endsWith('_message') || k === 'reason') && typeof v === 'string') out.push(v);
      else messages(v, out);
    }
  }
  return out;
}

test('no message of a design or its DFM report prints an unrounded number', async () => {
  const pick = (dir: string, every: number): string[] => readdirSync(join(ROOT, dir)).filter((f) => f.endsWith('.step')).sort().filter((_, i) => i % every === 0).map((f) => join(dir, f));
  const files = [...pick('sheet', 8), ...pick('tubes', 6), ...pick('assembly', 2)];
  const materials = ['mat_mild_steel_0_030in', 'mat_mild_steel_2_0mm', 'mat_5052_h32_0_080in'];
  const catalog = defaultCatalog();
  const bad: string[] = [];
  let seen = 0;
  for (const file of files) {
    const design = await analyze(new Uint8Array(readFileSync(join(ROOT, file))), { fileName: file });
    const all = messages(design);
    for (const material_id of materials) {
      all.push(...messages(dfm(design, { defaults: { material_id, tube_profile_id: 'tp_nope' } }, catalog, { id: 'dfm_test', now: '2026-11-25T00:00:00.000Z', generateProductionFiles: false })));
    }
    seen += all.length;
    bad.push(...all.filter((m) => UNROUNDED.test(m)).map((m) => `${file}: ${m}`));
  }
  assert.ok(seen > 50, `${seen} messages read`);
  assert.deepEqual(bad, []);
});
