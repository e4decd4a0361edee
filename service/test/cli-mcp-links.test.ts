// `kerf mcp` hands out web links (checkout, review) under its base URL: when a service answers there
// they are given as they are; when none does, the result says how to start one on the same data.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { webLinksNote } from '../src/commands/mcp.ts';

test('webLinksNote: null where a service answers /v1/health, a start command where none does', async () => {
  const server = createServer((req, res) => { res.writeHead(req.url === '/v1/health' ? 200 : 404).end('{}'); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  try {
    assert.equal(await webLinksNote(base, '/srv/kerf'), null);
  } finally {
    await new Promise((r) => server.close(r));
  }
  const note = await webLinksNote(base, '/srv/kerf');
  assert.ok(note, 'a note once nothing listens');
  assert.ok(note.includes(`No Kerf service answers at ${base}`), note);
  assert.ok(note.includes(`KERF_DATA_DIR=/srv/kerf KERF_BASE_URL=${base} kerf serve`), note);
});
