// The press-brake tooling served like the other catalogs: /v1/press-brake/brakes, /punches and /dies
// in the list envelope with cursors, each entry with its object name, described in the OpenAPI
// document. Fastify on a port with the embedded store on disk, called with an API key.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from './helpers/service.ts';

describe('press-brake tooling lists', () => {
  let t: TestService;
  before(async () => { t = await startTestService({ logLevel: process.env.TEST_LOG_LEVEL ?? 'silent' }); });
  after(async () => { await t?.close(); });
  const get = async (path: string, refused = false) => {
    const res = await fetch(`${t.url}${path}`, { headers: { authorization: `Bearer ${t.keyA}` } });
    const body = await res.json() as any;
    if (refused) assert.ok(res.status >= 400 && res.status < 500, `${path}: ${res.status}`);
    else assert.equal(res.status, 200, `${path}: ${JSON.stringify(body)}`);
    return body;
  };

  it('lists the brake, its punches and its V-dies with the list envelope', async () => {
    const brakes = await get('/v1/press-brake/brakes');
    assert.equal(brakes.object, 'list');
    assert.equal(brakes.has_more, false);
    assert.equal(brakes.data.length, 1);
    assert.equal(brakes.data[0].object, 'press_brake');
    assert.ok(brakes.data[0].bed_length_mm > 0 && brakes.data[0].max_force_kn > 0);

    const punches = await get('/v1/press-brake/punches?limit=500');
    const ids = punches.data.map((p: any) => p.id);
    for (const id of ['pun_straight_88', 'pun_gooseneck_88', 'pun_box_88']) assert.ok(ids.includes(id), `${id} in ${ids.join(', ')}`);
    const goose = punches.data.find((p: any) => p.id === 'pun_gooseneck_88');
    assert.equal(goose.object, 'press_brake_punch');
    assert.equal(goose.style, 'gooseneck');
    assert.ok(goose.height_mm > 0 && goose.profile_mm.length >= 3 && goose.segment_lengths_mm.length > 0);

    const dies = await get('/v1/press-brake/dies?limit=500');
    assert.ok(dies.data.length > 1);
    assert.ok(dies.data.every((d: any) => d.object === 'press_brake_die' && d.v_opening_mm > 0 && /^die_v\d+_\d+$/.test(d.id)));
    // cursors page through the same order
    const first = await get('/v1/press-brake/dies?limit=1');
    assert.equal(first.has_more, true);
    const second = await get(`/v1/press-brake/dies?limit=1&cursor=${first.next_cursor}`);
    assert.deepEqual([first.data[0].id, second.data[0].id], dies.data.slice(0, 2).map((d: any) => d.id));
    // another list's cursor and an unknown parameter are refused precisely
    const wrong = await get(`/v1/press-brake/punches?cursor=${first.next_cursor}`, true);
    assert.equal(wrong.error.param, 'cursor');
    const unknown = await get('/v1/press-brake/dies?thickness_mm=2', true);
    assert.equal(unknown.error.param, 'thickness_mm');
  });

  it('is in the OpenAPI document with its fields described', async () => {
    const doc = await (await fetch(`${t.url}/v1/openapi.json`)).json() as any;
    for (const list of ['brakes', 'punches', 'dies']) {
      const op = doc.paths[`/v1/press-brake/${list}`]?.get;
      assert.ok(op, `/v1/press-brake/${list} documented`);
      let schema = op.responses['200'].content['application/json'].schema;
      if (schema.$ref) schema = doc.components.schemas[schema.$ref.split('/').pop()];
      let item = schema.properties.data.items;
      if (item.$ref) item = doc.components.schemas[item.$ref.split('/').pop()];
      for (const [name, field] of Object.entries(item.properties as Record<string, any>)) assert.ok(field.description, `${list}.${name} described`);
    }
  });
});
