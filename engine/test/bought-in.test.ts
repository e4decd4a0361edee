// Bought-in hardware in an assembly never blocks it (issue 32, items 1 and 2): fixtures/hardware/
// (built, truth.json) through analyze -> dfm -> prices, and the name matcher on names in several
// languages (raw Windows-1251 names read as Latin-1 included).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defaultCatalog } from '../src/catalog/index.ts';
import { dfm } from '../src/dfm/index.ts';
import { partPrices } from '../src/pricing/index.ts';
import { analyze } from '../src/analyze.ts';
import { hardwareFromName } from '../src/hardware/index.ts';
import type { Design } from '../src/contract.ts';

const DIR = fileURLToPath(new URL('../../fixtures/hardware/', import.meta.url));
interface TruthPart { name: string; instance_count: number; expect: 'sheet' | 'bought_in' | 'refused'; kind?: string; size?: string; hole_diameters_mm?: number[]; seated?: Array<{ kind: string; size: string; catalog_id: string; hole_diameter_mm: number }> }
const truth: { fixtures: Array<{ id: string; file: string; parts: TruthPart[] }> } = JSON.parse(readFileSync(`${DIR}truth.json`, 'utf8'));
const catalog = defaultCatalog();
const STEEL = 'mat_mild_steel_2_0mm';
const ctx = { id: 'dfm_test', now: '2026-01-01T00:00:00.000Z' };
const designs = new Map<string, Design>();
async function design(file: string): Promise<Design> {
  if (!designs.has(file)) designs.set(file, await analyze(new Uint8Array(readFileSync(`${DIR}${file}`)), { fileName: file, createdAt: ctx.now }));
  return designs.get(file)!;
}
/** Each sheet part at its own thickness in mild steel. */
function materials(d: Design): Array<{ part_id: string; material_id: string }> {
  return d.parts.filter((p) => p.manufacturable && p.detected_thickness_mm !== null && !p.bought_in)
    .map((p) => ({ part_id: p.id, material_id: catalog.materials.find((m) => m.type === 'mild_steel' && Math.abs(m.thickness_mm - p.detected_thickness_mm!) < 0.01)!.id }));
}

describe('bought-in hardware: fixtures with truth', () => {
  for (const fx of truth.fixtures) {
    test(`${fx.id}: parts taken for what they are`, async () => {
      const d = await design(fx.file);
      assert.equal(d.parts.length, fx.parts.length, d.parts.map((p) => p.name).join(', '));
      for (const t of fx.parts) {
        const p = d.parts.find((x) => x.name === t.name);
        assert.ok(p, `part ${t.name} in ${d.parts.map((x) => x.name).join(', ')}`);
        assert.equal(p.instance_count, t.instance_count, t.name);
        if (t.expect === 'bought_in') {
          assert.ok(p.bought_in, `${t.name} is bought-in: ${p.unsupported_message}`);
          assert.equal(p.bought_in.kind, t.kind, t.name);
          assert.equal(p.bought_in.size, t.size, t.name);
        } else {
          assert.equal(p.bought_in ?? null, null, `${t.name} is not hardware: ${p.bought_in?.message}`);
          assert.equal(p.manufacturable, t.expect === 'sheet', `${t.name}: ${p.unsupported_message}`);
        }
        if (t.hole_diameters_mm) {
          assert.deepEqual(p.holes.map((h) => Number(h.diameter_mm.toFixed(2))).sort((a, b) => a - b), t.hole_diameters_mm, `${t.name}: the flat's holes`);
          assert.ok(p.holes.every((h) => h.shape === 'round'));
        }
        const seated = (p.seated_hardware ?? []).map((s) => ({ kind: s.kind, size: s.size, d: Number(p.holes.find((h) => h.id === s.hole_id)!.diameter_mm.toFixed(2)) }));
        assert.deepEqual(seated.sort((a, b) => a.d - b.d || a.kind.localeCompare(b.kind)), (t.seated ?? []).map((s) => ({ kind: s.kind, size: s.size, d: s.hole_diameter_mm })).sort((a, b) => a.d - b.d || a.kind.localeCompare(b.kind)), `${t.name}: seated hardware`);
      }
    });

    test(`${fx.id}: DFM and prices leave bought-in parts out, install seated press-in hardware`, async () => {
      const d = await design(fx.file);
      const config = { parts: materials(d) };
      const report = dfm(d, config, catalog, ctx);
      const refused = fx.parts.some((t) => t.expect === 'refused');
      assert.equal(report.status, refused ? 'blocked' : 'ready', JSON.stringify(report.parts.map((p) => [p.part_id, p.status, p.issues.map((i) => i.code)])));
      for (const t of fx.parts) {
        const p = d.parts.find((x) => x.name === t.name)!;
        const pr = report.parts.find((x) => x.part_id === p.id)!;
        const entry = report.configuration.parts.find((c) => c.part_id === p.id);
        if (t.expect === 'bought_in') {
          assert.equal(pr.status, 'ready');
          assert.equal(pr.left_out?.reason, 'bought_in');
          assert.deepEqual(pr.issues.map((i) => [i.code, i.severity]), [['part_left_out', 'warning']]);
          assert.match(pr.issues[0].message, new RegExp(`x${t.instance_count}`));
          assert.equal(entry?.left_out, true, 'the normalised configuration says so');
        }
        for (const s of t.seated ?? []) {
          const ids = [...(entry?.nuts ?? []).map((n) => n.nut_id), ...(entry?.standoffs ?? []).map((n) => n.standoff_id), ...(entry?.studs ?? []).map((n) => n.stud_id)];
          assert.ok(ids.includes(s.catalog_id), `${t.name}: ${s.catalog_id} installed by default, got ${ids.join(', ')}`);
        }
      }
      if (refused) return;
      const prices = partPrices({ items: [{ design_id: d.id, quantity: 2, configuration: config }] }, new Map([[d.id, d]]), catalog, { now: ctx.now, dfmIds: ['dfm_q'] });
      const [item] = prices.items;
      assert.equal(item.status, 'ready');
      assert.ok(Number.isInteger(item.amount_cents) && item.amount_cents > 0);
      const made = fx.parts.filter((t) => t.expect === 'sheet').map((t) => d.parts.find((x) => x.name === t.name)!.id);
      assert.deepEqual(item.line_items.map((l) => l.part_id).sort(), made.sort(), 'a line item per made part only: no invented price for bought-in parts');
      const seats = fx.parts.flatMap((t) => t.seated ?? []).length;
      const hardware = item.line_items.flatMap((l) => l.breakdown).filter((b) => /nut|stud|standoff|hardware/.test(b.type));
      assert.equal(hardware.length > 0, seats > 0, `seated hardware is priced: ${JSON.stringify(item.line_items.map((l) => l.breakdown.map((b) => b.type)))}`);
    });
  }

  test('the caller puts a bought-in part back in (left_out: false), and leaves a made part out (left_out: true)', async () => {
    const d = await design('asm_panel_clinch_nuts_screws.step');
    const panel = d.parts.find((p) => p.name === 'Panel')!, cls = d.parts.find((p) => p.name === 'CLS-M4-1')!;
    const back = dfm(d, { parts: [...materials(d), { part_id: cls.id, left_out: false }] }, catalog, ctx);
    assert.equal(back.status, 'blocked', 'made as modelled: a nut is not sheet metal');
    assert.equal(back.parts.find((p) => p.part_id === cls.id)!.left_out, null);
    assert.deepEqual(back.configuration.parts.find((c) => c.part_id === panel.id)!.nuts, [], 'no default nut where the part is made instead');
    const chosen = dfm(d, { parts: [{ ...materials(d)[0], nuts: [{ hole_id: panel.seated_hardware![0].hole_id, nut_id: 'nut_clss_m4', side: 'top' }] }] }, catalog, ctx);
    const nuts = chosen.configuration.parts.find((c) => c.part_id === panel.id)!.nuts;
    assert.deepEqual(nuts.map((n) => n.nut_id), ['nut_clss_m4', 'nut_cls_m4'], 'the caller\'s choice stands for its hole, the default fills the other');
    const out = dfm(d, { parts: [{ part_id: panel.id, left_out: true }] }, catalog, ctx);
    assert.equal(out.status, 'ready');
    assert.equal(out.parts.find((p) => p.part_id === panel.id)!.left_out?.reason, 'customer_supplied');
    const prices = partPrices({ items: [{ design_id: d.id, quantity: 1, configuration: { parts: [{ part_id: panel.id, left_out: true }] } }] }, new Map([[d.id, d]]), catalog, { now: ctx.now, dfmIds: ['dfm_q'] });
    assert.deepEqual([prices.items[0].status, prices.items[0].line_items.length, prices.items[0].amount_cents], ['ready', 0, 0]);
  });

  test('real: goBILDA 2800-0004-0006 (a SolidWorks export of an M4 x 6 socket head screw, modelled thread, named only by its part number) is taken for an M4 screw by its shape', async () => {
    const d = await design('real/gobilda-2800-0004-0006-socket-head-m4x6.step');
    assert.equal(d.parts.length, 1);
    const [screw] = d.parts;
    assert.deepEqual([screw.bought_in?.kind, screw.bought_in?.size, screw.bought_in?.recognized_by], ['screw', 'M4', ['shape']], screw.bought_in?.message ?? screw.unsupported_message ?? '');
    assert.equal(dfm(d, {}, catalog, ctx).status, 'ready', 'left out: nothing blocks');
  });

  test('left_out must be a boolean', async () => {
    const d = await design('asm_plate_rivet_nuts.step');
    assert.throws(() => dfm(d, { parts: [{ part_id: d.parts[0].id, left_out: 'yes' }] }, catalog, ctx), (e: { param?: string }) => e.param === 'configuration.parts[0].left_out');
  });
});

describe('hardware names in the languages CAD files carry', () => {
  const cases: Array<[string, string | null, string | null]> = [
    ['Гайка клепальная М4', 'rivet_nut', 'M4'],
    ['Винт М3х8 ГОСТ 17473-80', 'screw', 'M3'],
    ['Шайба 4 ГОСТ 11371-78', 'washer', null],
    ['Гайка М5 ГОСТ 5915-70', 'nut', 'M5'],
    ['Заклепка 4х10', 'rivet', null],
    ['Zylinderschraube DIN 912 M6x20', 'screw', 'M6'],
    ['Sechskantmutter M8', 'nut', 'M8'],
    ['Unterlegscheibe DIN 125 A 6,4', 'washer', null],
    ['Nietmutter M5', 'rivet_nut', 'M5'],
    ['CLS-M4-1', 'self_clinching_nut', 'M4'],
    ['FH-M3-10', 'self_clinching_stud', 'M3'],
    ['SO-M3-10', 'self_clinching_standoff', 'M3'],
    ['S-440-1', 'self_clinching_nut', '#4-40'],
    ['ISO 4762 M4x10', 'screw', 'M4'],
    ['DIN_934_M4', 'nut', 'M4'],
    ['Hex_Nut_M3', 'nut', 'M3'],
    ['608-2RS', 'bearing', null],
    ['vis CHC M4x12', 'screw', 'M4'],
    ['tornillo M6', 'screw', 'M6'],
    // a Windows-1251 name read as Latin-1 (mojibake): understood all the same
    ['Ãàéêà êëåïàëüíàÿ Ì4', 'rivet_nut', 'M4'],
    // not hardware
    ['Bracket', null, null], ['S235 plate 3mm', null, null], ['Кронштейн', null, null], ['Korpus', null, null], ['Base_plate_M4_holes', null, null],
  ];
  for (const [name, kind, size] of cases) {
    test(`'${name}'`, () => {
      const m = hardwareFromName(name);
      assert.deepEqual(m ? [m.kind, m.size] : [null, null], [kind, size]);
    });
  }
});
