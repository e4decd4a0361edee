// Production files of a multi-part DFM report over HTTP with the real worker-pool engine: the job
// makes every part's files in one engine call (one STEP import per report, not one per part), and
// each part's flat uses the K-factor of its own configured material.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, freePort, type TestService } from './helpers/service.ts';
import { Client, clientsFor, pollDesign, pollProductionFiles, stepForm } from './helpers/client.ts';
import { fixtureBytes } from './helpers/fixtures.ts';
import { LocalEngine, PoolEngine } from '@kerf/service';
import { schemas } from '@kerf/usecases';

const { PRODUCTION_FILE_KINDS } = schemas;

// U channel (1.5 mm, two bends), bracket A and its mirror (2 mm, one bend each): three unique sheet parts.
const ASSEMBLY = new URL('../fixtures/assembly/asm_instanced_products.step', import.meta.url).pathname;
/** Material by part name: different families, so different K tables at the same r/t. */
const MATERIALS: Record<string, string> = {
  u_channel: 'mat_5052_h32_1_5mm',
  bracket_a: 'mat_304_2_0mm',
  bracket_a_mirror: 'mat_mild_steel_2_0mm',
};
/** Flat extents are written at full precision; K-factors that differ by 0.01 move them by > 0.03 mm. */
const EXTENT_TOL_MM = 1e-3;

/** The real pool engine, counting the production-file calls the jobs make. */
class CountingPoolEngine extends PoolEngine {
  productionCalls = 0;
  override async productionFiles(input: Parameters<PoolEngine['productionFiles']>[0]) {
    this.productionCalls++;
    return super.productionFiles(input);
  }
}

/** The flat's extents from the DXF header ($EXTMIN/$EXTMAX), longest first. */
function dxfExtents(bytes: Uint8Array): [number, number] {
  const lines = Buffer.from(bytes).toString('latin1').split(/\r?\n/).map((l) => l.trim());
  const point = (name: string): [number, number] => {
    const i = lines.indexOf(name);
    assert.ok(i >= 0 && lines[i + 1] === '10' && lines[i + 3] === '20', `${name} in the DXF header`);
    return [Number(lines[i + 2]), Number(lines[i + 4])];
  };
  const [min, max] = [point('$EXTMIN'), point('$EXTMAX')];
  const d = [max[0] - min[0], max[1] - min[1]].sort((x, y) => y - x);
  return [d[0], d[1]];
}

describe('DFM production files of an assembly', () => {
  let t: TestService;
  let a: Client;
  let engine: CountingPoolEngine;
  let design: any;
  let configuration: { parts: Array<{ part_id: string; material_id: string }> };

  before(async () => {
    const port = await freePort();
    engine = new CountingPoolEngine({ threads: 1, timeoutMs: 120_000, maxMemoryMb: 2048 });
    t = await startTestService({ port }, { engine });
    ({ a } = await clientsFor(t));
    const r = await a.post('/v1/analyze', { form: stepForm(ASSEMBLY) });
    assert.ok([200, 202].includes(r.status), r.text);
    design = await pollDesign(a, r.body.id);
    assert.equal(design.status, 'ready');
    const sheets = design.parts.filter((p: any) => p.manufacturable && p.suggested_process === 'sheet_metal' && p.bends.length > 0);
    assert.equal(sheets.length, 3, 'three unique bent sheet parts');
    configuration = { parts: design.parts.map((p: any) => ({ part_id: p.id, material_id: MATERIALS[p.name] })) };
    assert.ok(configuration.parts.every((p) => p.material_id), JSON.stringify(design.parts.map((p: any) => p.name)));
  });
  after(async () => { await t?.close(); });

  it('one engine call makes every part\'s files, each flat with its own material\'s K', async () => {
    const r = await a.post('/v1/dfm', { json: { design_id: design.id, configuration } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.status, 'ready', JSON.stringify(r.body.parts.map((p: any) => p.issues)));
    const report = await pollProductionFiles(a, r.body);
    assert.equal(report.production_files.status, 'ready', JSON.stringify(report.production_files));

    assert.equal(engine.productionCalls, 1, 'one engine call for the whole report');

    // The check below can only tell the K-factors apart if they differ, between parts and from the upload's default.
    const ks = report.parts.map((p: any) => p.k_factor);
    assert.ok(ks.every((k: unknown) => typeof k === 'number'), JSON.stringify(ks));
    assert.ok(new Set(ks).size >= 2, `parts' K-factors differ: ${JSON.stringify(ks)}`);
    const uploaded = new Map<string, number>(design.parts.map((p: any) => [p.id, p.flat_pattern.k_factor]));
    assert.ok(report.parts.some((p: any) => Math.abs(p.k_factor - uploaded.get(p.part_id)!) > 0.01), 'some material K differs from the default flat\'s');

    for (const p of report.parts) {
      assert.equal(p.flat_pattern.k_factor, p.k_factor, `${p.part_id}: the report's flat uses the material K`);
      for (const kind of PRODUCTION_FILE_KINDS) {
        const f = await a.download(`/v1/dfm/${report.id}/parts/${p.part_id}/file?kind=${kind}`);
        assert.equal(f.status, 200, `${p.part_id} ${kind}`);
        assert.ok(f.bytes.byteLength > 0, `${p.part_id} ${kind}`);
      }
      const dxf = await a.download(`/v1/dfm/${report.id}/parts/${p.part_id}/file?kind=production_dxf`);
      const [length, width] = dxfExtents(dxf.bytes);
      const flat = [p.flat_pattern.length_mm, p.flat_pattern.width_mm].sort((x: number, y: number) => y - x);
      assert.ok(Math.abs(length - flat[0]) < EXTENT_TOL_MM && Math.abs(width - flat[1]) < EXTENT_TOL_MM,
        `${p.part_id} (K ${p.k_factor}): DXF ${length} x ${width}, report's flat ${flat[0]} x ${flat[1]}`);
    }
  });

  it('the in-process engine makes the same files as the pool', async () => {
    const source = fixtureBytes(ASSEMBLY);
    const ids = design.parts.map((p: any) => p.id);
    const parts = [{ partId: ids[0], kFactor: 0.33 }, { partId: ids[1] }];
    const input = { design, source, parts, configuration: {} };
    const [pool, local] = await Promise.all([engine.productionFiles(input), new LocalEngine().productionFiles(input)]);
    assert.deepEqual(Object.keys(local).sort(), [ids[0], ids[1]].sort());
    for (const id of [ids[0], ids[1]]) {
      assert.deepEqual(Object.keys(pool[id]).sort(), Object.keys(local[id]).sort(), id);
      assert.deepEqual(Object.keys(local[id]).sort(), [...PRODUCTION_FILE_KINDS].sort(), id);
      for (const kind of ['production_dxf', 'production_bend_lines_dxf'] as const) {
        const [pl, pw] = dxfExtents(pool[id][kind]!.bytes), [ll, lw] = dxfExtents(local[id][kind]!.bytes);
        assert.ok(Math.abs(pl - ll) < EXTENT_TOL_MM && Math.abs(pw - lw) < EXTENT_TOL_MM, `${id} ${kind}: pool ${pl} x ${pw}, in-process ${ll} x ${lw}`);
        // the DXF writer's handles restart per drawing: a worker and this thread write the same bytes
        assert.equal(Buffer.from(pool[id][kind]!.bytes).toString('latin1'), Buffer.from(local[id][kind]!.bytes).toString('latin1'), `${id} ${kind}: same bytes`);
      }
    }
    const single = await new LocalEngine().productionFiles({ design, source, parts: [{ partId: ids[0] }], configuration: {} });
    const [withK] = dxfExtents(local[ids[0]].production_dxf!.bytes), [withoutK] = dxfExtents(single[ids[0]].production_dxf!.bytes);
    assert.ok(Math.abs(withK - withoutK) > 10 * EXTENT_TOL_MM, `the given K changes the flat: ${withK} vs ${withoutK}`);
  });
});
