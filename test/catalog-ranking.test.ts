// The stock an agent takes first is the right one: search_catalog ranks the material of exactly the
// thickness asked for (in the unit asked: "2 mm", "0.075 in", "14 ga") first, then the nearest; the
// REST thickness filter and the web's stock pickers rank alike; search_catalog with design_id and
// part_id answers the stock that part fits, the closest first. All against the real catalog.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { Client as McpClient, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { partStockChoices } from '@kerf/usecases';
import { startTestService, type TestService } from './helpers/service.ts';
import { Client, pollDesign, stepForm } from './helpers/client.ts';
import { OpenApiChecker } from './helpers/openapi.ts';

interface Material { id: string; thickness_mm: number; thickness_in: number; type: string }

const fixture = (p: string): string => fileURLToPath(new URL(`../fixtures/${p}`, import.meta.url));

describe('catalog ranking: exact thickness first, then the nearest', () => {
  let t: TestService;
  let api: Client;
  let mcp: McpClient;
  const search = async (args: Record<string, unknown>): Promise<{ result: CallToolResult; data: Material[] }> => {
    const result = (await mcp.callTool({ name: 'search_catalog', arguments: args })) as CallToolResult;
    assert.ok(!result.isError, JSON.stringify(result.content));
    return { result, data: (result.structuredContent as { data: Material[] }).data };
  };
  const ids = (data: Material[], n: number): string[] => data.slice(0, n).map((m) => m.id);

  before(async () => {
    t = await startTestService();
    api = new Client(t.url, t.keyA, await OpenApiChecker.load(t.url));
    mcp = new McpClient({ name: 'kerf-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${t.keyA}` } } }));
  });
  after(async () => {
    await mcp?.close();
    await t?.close();
  });

  it('"mild steel 2 mm": the 2.0 mm sheet first, then 14 ga (1.905 mm) and 13 ga (2.286 mm)', async () => {
    const { data, result } = await search({ catalog: 'materials', query: 'mild steel 2 mm' });
    assert.deepEqual(ids(data, 3), ['mat_mild_steel_2_0mm', 'mat_mild_steel_0_075in', 'mat_mild_steel_0_090in']);
    assert.ok(data.every((m) => m.type === 'mild_steel'), 'only mild steel');
    // nearest first all the way down
    const d = data.slice(1).map((m) => Math.abs(m.thickness_mm - 2));
    for (let i = 1; i < d.length; i++) assert.ok(d[i] >= d[i - 1], `${data[i + 1].id} after a nearer one`);
    assert.match((result.content[0] as { text: string }).text, /mat_mild_steel_2_0mm/);
    // the unit may be written without a space
    assert.equal((await search({ catalog: 'materials', query: 'mild steel 2mm' })).data[0].id, 'mat_mild_steel_2_0mm');
  });

  it('in the unit asked: "0.075 in" and "14 ga" are the inch SKU, "1.9 mm" is nearest the 1.905 mm one', async () => {
    assert.equal((await search({ catalog: 'materials', query: 'mild steel 0.075 in' })).data[0].id, 'mat_mild_steel_0_075in');
    assert.equal((await search({ catalog: 'materials', query: 'mild steel 0.075"' })).data[0].id, 'mat_mild_steel_0_075in');
    const gauge = (await search({ catalog: 'materials', query: 'mild steel 14 ga' })).data;
    assert.deepEqual(ids(gauge, 2), ['mat_mild_steel_0_075in', 'mat_mild_steel_2_0mm']);
    assert.equal((await search({ catalog: 'materials', query: '14 gauge mild' })).data[0].id, 'mat_mild_steel_0_075in');
    // an inch query keeps inch SKUs ahead of a metric one just as near
    const inch = (await search({ catalog: 'materials', query: 'stainless 0.120 in' })).data;
    assert.equal(inch[0].thickness_in, 0.12);
    assert.equal(inch[0].type, 'stainless_304');
  });

  it('other materials rank the same way: "aluminum 3 mm", "stainless 1.5 mm"', async () => {
    const al = (await search({ catalog: 'materials', query: 'aluminum 3 mm' })).data;
    assert.equal(al[0].thickness_mm, 3);
    assert.match(al[0].id, /^mat_5052_.*_3_0mm$/, 'the metric 3.0 mm aluminum sheet');
    const ss = (await search({ catalog: 'materials', query: 'stainless 1.5 mm' })).data;
    assert.equal(ss[0].thickness_mm, 1.5);
    assert.ok(ss.slice(1).every((m) => m.thickness_mm !== 1.5 || m.type !== ss[0].type));
  });

  it('GET /v1/materials?thickness_mm= ranks the exact thickness first (also across pages)', async () => {
    const r = await api.get('/v1/materials?thickness_mm=2&material=mild_steel');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.data.map((m: Material) => m.id), ['mat_mild_steel_2_0mm', 'mat_mild_steel_0_075in']);
    const all = (await api.get('/v1/materials?thickness_mm=2&limit=500')).body.data as Material[];
    assert.ok(all.slice(0, 3).every((m) => m.thickness_mm === 2), all.map((m) => m.id).join());
    // paging walks the same ranked list
    const seen: string[] = [];
    for (let cursor: string | null = null, n = 0; n < 50; n++) {
      const page: { body: { data: Material[]; has_more: boolean; next_cursor: string | null } } = await api.get(`/v1/materials?thickness_mm=2&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.body.data.map((m: Material) => m.id));
      if (!page.body.has_more) break;
      cursor = page.body.next_cursor;
    }
    assert.deepEqual(seen, all.map((m) => m.id));
  });

  it('the stock for a part (design_id + part_id) and the web picker: its own thickness first', async () => {
    const sheet = await api.post('/v1/analyze', { form: stepForm(fixture('sheet/l_t2_r2.step')) });
    const tube = await api.post('/v1/analyze', { form: stepForm(fixture('tubes/rect-60x30x2.5-r5-l400-slots.step')) });
    const sheetDesign = await pollDesign(api, sheet.body.id, 120_000);
    const tubeDesign = await pollDesign(api, tube.body.id, 120_000);
    assert.equal(sheetDesign.status, 'ready');
    const part = sheetDesign.parts[0];
    const { data, result } = await search({ catalog: 'materials', design_id: sheetDesign.id, part_id: part.id });
    assert.ok(data.length > 1);
    assert.equal(data[0].thickness_mm, 2, 'the part is 2 mm: a 2.0 mm sheet first');
    assert.ok(data.slice(0, 3).every((m) => m.thickness_mm === 2), data.map((m) => m.id).join());
    assert.match((result.content[0] as { text: string }).text, /the closest first/);
    // the web's configure form offers the same order
    const picker = await partStockChoices(t.service.ctx, { accountId: t.accountA, scopes: ['designs'], via: 'api_key', credentialId: null, operator: false }, { design_id: sheetDesign.id });
    assert.deepEqual(picker[0].choices.map((c) => c.id), data.map((m) => m.id));
    // a tube part: its tube profile; asking the wrong catalog says which one
    assert.equal(tubeDesign.status, 'ready');
    const tubePart = tubeDesign.parts[0];
    const profiles = (await search({ catalog: 'tube_profiles', design_id: tubeDesign.id, part_id: tubePart.id })).data as unknown as Array<{ id: string; wall_thickness_mm: number }>;
    assert.equal(profiles[0]?.id, 'tub_s235_rectangular_60x30_2_5w', 'a 60 x 30 x 2.5 tube is stocked');
    const wrong = (await mcp.callTool({ name: 'search_catalog', arguments: { catalog: 'materials', design_id: tubeDesign.id, part_id: tubePart.id } })) as CallToolResult;
    assert.ok(wrong.isError);
    assert.match(JSON.stringify(wrong.content), /tube_profiles/);
    const missing = (await mcp.callTool({ name: 'search_catalog', arguments: { catalog: 'materials', design_id: sheetDesign.id, part_id: 'prt_nothing' } })) as CallToolResult;
    assert.ok(missing.isError);
  });
});
