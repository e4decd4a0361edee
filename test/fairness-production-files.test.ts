// Production files are made once per (design, part, flat K-factor) and shared: quote items whose
// reports differ but whose flats are the same get the files of one import, and every item's report
// hands out the same stored files. Real service, real engine, store on disk.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fixtureBytes } from './helpers/fixtures.ts';
import { startTestService, type TestService } from './helpers/service.ts';

const L_BRACKET = new URL('../fixtures/sheet/l_t2_r2.step', import.meta.url).pathname;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('fairness: production files shared by quote items', () => {
  let t: TestService;
  let auth: Record<string, string>;
  before(async () => { t = await startTestService(); auth = { authorization: `Bearer ${t.keyA}` }; });
  after(async () => { await t.close(); });

  it('items of one design and material share one set of files', async () => {
    const form = new FormData();
    form.append('file', new Blob([fixtureBytes(L_BRACKET)]), 'l.step');
    const design = (await (await fetch(`${t.url}/v1/analyze`, { method: 'POST', headers: { ...auth, prefer: 'wait=60' }, body: form })).json()) as { id: string; status: string; parts: Array<{ id: string }> };
    assert.equal(design.status, 'ready');
    const materials = ((await (await fetch(`${t.url}/v1/materials?limit=100`, { headers: auth })).json()) as { data: Array<{ id: string; thickness_mm: number; bendable: boolean; available: boolean }> }).data;
    const material = materials.filter((m) => m.bendable && m.available).sort((x, y) => Math.abs(x.thickness_mm - 2) - Math.abs(y.thickness_mm - 2))[0];
    // the same material said two ways: two reports (identical items share one report anyway), one flat
    const configurations = [
      { parts: design.parts.map((p) => ({ part_id: p.id, material_id: material.id })) },
      { defaults: { material_id: material.id } },
    ];
    const items = configurations.map((configuration, i) => ({ design_id: design.id, quantity: i + 1, configuration }));
    const quote = await fetch(`${t.url}/v1/quotes`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ items }) });
    assert.equal(quote.status, 201, await quote.clone().text());
    const dfmIds = ((await quote.json()) as { items: Array<{ dfm: { id: string } }> }).items.map((i) => i.dfm.id);
    assert.equal(new Set(dfmIds).size, 2, 'two reports');
    const dxfKeys = new Set<string>();
    for (const id of dfmIds) {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const r = (await (await fetch(`${t.url}/v1/dfm/${id}`, { headers: auth })).json()) as { production_files: { status: string } };
        if (r.production_files.status !== 'pending') { assert.equal(r.production_files.status, 'ready'); break; }
        assert.ok(Date.now() < deadline, `report ${id} still pending`);
        await sleep(100);
      }
      const doc = (await t.service.store.documents<{ _files: Record<string, Record<string, { key: string }>> }>('dfm_reports').get(t.accountA, id))!.data;
      for (const part of Object.values(doc._files)) dxfKeys.add(part.production_dxf.key);
      const dl = await fetch(`${t.url}/v1/dfm/${id}/parts/${design.parts[0].id}/file?kind=production_dxf`, { headers: auth, redirect: 'manual' });
      assert.equal(dl.status, 307);
      assert.equal((await fetch(dl.headers.get('location')!)).status, 200);
    }
    // one stored DXF per part, whichever report hands it out
    assert.ok(dxfKeys.size <= design.parts.length, `${dxfKeys.size} DXF files for ${design.parts.length} part(s) across two reports`);
  });
});
