// Every body accounted for, over HTTP: the design resource lists the same parts, verdicts and ignored
// bodies as the library for the same bytes (fixtures/bodies: a surface model that cannot close beside a
// solid, a multi-body product with named bodies and a coincident duplicate, a sewn surface model).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, type Design } from '@kerf/engine';
import { startTestService, type TestService } from './helpers/service.ts';
import { Client, pollDesign, stepForm } from './helpers/client.ts';
import { fixtureBytes } from './helpers/fixtures.ts';
import { OpenApiChecker } from './helpers/openapi.ts';

const FILES = ['surface_l_open.step', 'multibody_named.step', 'surface_l_sewable.step', 'zero_volume_body.step'];
const path = (file: string) => new URL(`../fixtures/bodies/${file}`, import.meta.url).pathname;

/** What must agree: each part's name and verdict, its warnings' codes, the ignored bodies. */
function verdicts(d: Pick<Design, 'parts' | 'ignored_bodies'>) {
  return {
    parts: d.parts.map((p) => ({ name: p.name, manufacturable: p.manufacturable, reason: p.unsupported_reason, instances: p.instance_count, bends: p.bend_count, warnings: p.warnings.map((w) => w.code) }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    ignored: d.ignored_bodies.map((b) => ({ name: b.name, reason: b.reason })),
  };
}

describe('bodies over HTTP = bodies from the library', () => {
  let t: TestService;
  let a: Client;
  before(async () => {
    t = await startTestService();
    a = new Client(t.url, t.keyA, await OpenApiChecker.load(t.url));
  });
  after(async () => { await t.close(); });

  for (const file of FILES) {
    it(`${file}: same parts, verdicts and ignored bodies`, async () => {
      const r = await a.post('/v1/analyze', { form: stepForm(path(file)) });
      assert.ok([200, 202].includes(r.status), r.text);
      const d = await pollDesign(a, r.body.id);
      assert.equal(d.status, 'ready', JSON.stringify(d.error));
      const lib = await analyze(fixtureBytes(path(file)), { fileName: file });
      assert.deepEqual(verdicts(d), verdicts(lib));
    });
  }

  it('an open shell is a named, unmanufacturable part whose DFM report is blocked, never a dropped body', async () => {
    const r = await a.post('/v1/analyze', { form: stepForm(path('surface_l_open.step')) });
    const d = await pollDesign(a, r.body.id);
    const open = d.parts.find((p: { unsupported_reason: string | null }) => p.unsupported_reason === 'open_shell');
    assert.ok(open, JSON.stringify(d.parts.map((p: { name: string }) => p.name)));
    assert.match(open.unsupported_message, /'Bracket'/);
    const dfm = await a.post('/v1/dfm', { json: { design_id: d.id, generate_production_files: false } });
    assert.equal(dfm.status, 201, dfm.text);
    assert.equal(dfm.body.status, 'blocked');
  });
});
