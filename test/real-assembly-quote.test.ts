// A real third-party assembly is bought whole by REST (issue 32): ROVER6's 2 mm stainless frame
// (fixtures/real/rover6-frame-assembly.step.gz, uploaded gzip-compressed as it is stored) analyses
// with every part made, and quotes ready once the buyer accepts the holes its author drew near bends.
// Engine-level truth (the author's flat DXFs) is in engine/test/real-assembly.test.ts.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from './helpers/service.ts';
import { Client, clientsFor, stepForm } from './helpers/client.ts';

const FRAME = new URL('../fixtures/real/rover6-frame-assembly.step.gz', import.meta.url).pathname;
const STAINLESS_2MM = 'mat_304_2_0mm';

describe('REST: the ROVER6 frame assembly quotes whole', () => {
  let t: TestService;
  let a: Client;

  before(async () => {
    t = await startTestService({ logLevel: process.env.TEST_LOG_LEVEL ?? 'silent' });
    ({ a } = await clientsFor(t));
  });
  after(async () => { await t?.close(); });

  it('every part of the 14-instance frame is made, and the quote is ready with a line item per part', { timeout: 600_000 }, async () => {
    const r = await a.post('/v1/analyze', { form: stepForm(FRAME), headers: { prefer: 'wait=300' } });
    assert.equal(r.status, 200, r.text);
    const design = r.body;
    assert.equal(design.parts.length, 7);
    assert.equal(design.parts.reduce((n: number, p: any) => n + p.instance_count, 0), 14);
    assert.deepEqual(design.parts.filter((p: any) => !p.manufacturable).map((p: any) => [p.name, p.unsupported_message]), []);
    const configuration = { defaults: { material_id: STAINLESS_2MM } };
    const asDrawn = await a.post('/v1/quotes', { json: { items: [{ design_id: design.id, quantity: 1, configuration }] } });
    assert.equal(asDrawn.status, 201, asDrawn.text);
    assert.equal(asDrawn.body.status, 'blocked', 'holes 5.75 mm from bends wait for the buyer');
    const codes = new Set(asDrawn.body.items[0].dfm.parts.flatMap((p: any) => p.issues.map((i: any) => i.code)));
    assert.deepEqual([...codes], ['hole_too_close_to_bend']);
    const q = await a.post('/v1/quotes', { json: { items: [{ design_id: design.id, quantity: 1, configuration: { ...configuration, accepted_risks: ['hole_too_close_to_bend'] } }] } });
    assert.equal(q.status, 201, q.text);
    assert.equal(q.body.status, 'ready', JSON.stringify(q.body.items[0].dfm.parts.filter((p: any) => p.status !== 'ready')));
    assert.equal(q.body.items[0].line_items.length, 7);
    assert.ok(Number.isInteger(q.body.amount_subtotal_cents) && q.body.amount_subtotal_cents > 0);
  });
});
