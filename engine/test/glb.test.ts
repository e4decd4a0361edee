import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { writeGlb } from '../src/files/glb.ts';
import { flatMesh, formedMesh } from '../src/files/meshes.ts';
import { plateFlat, solidsOf, turnedFrame } from './files-helpers.ts';
import { corpusPath } from './corpus-dir.ts';

const require = createRequire(import.meta.url);
const validator = require('gltf-validator') as { validateBytes(b: Uint8Array): Promise<{ issues: { numErrors: number; numWarnings: number; messages: Array<{ code: string; message: string }> } }> };

function glbJson(glb: Uint8Array): { accessors: Array<{ min?: number[]; max?: number[]; count: number }> } {
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  const len = view.getUint32(12, true);
  return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + len)));
}

test('flat pattern GLB passes the Khronos validator and spans the flat in metres', async () => {
  const { flat } = plateFlat();
  const glb = writeGlb(await flatMesh(flat, 3));
  const report = await validator.validateBytes(glb);
  assert.equal(report.issues.numErrors, 0, JSON.stringify(report.issues.messages));
  assert.equal(report.issues.numWarnings, 0, JSON.stringify(report.issues.messages));
  const pos = glbJson(glb).accessors[0];
  assert.ok(Math.abs(pos.max![0] - pos.min![0] - 0.12) < 1e-6);
  assert.ok(Math.abs(pos.max![1] - pos.min![1] - 0.06) < 1e-6);
  assert.ok(Math.abs(pos.max![2] - pos.min![2] - 0.003) < 1e-6);
  assert.equal(glb.byteLength % 4, 0);
});

test('formed GLB of a real CAD part passes the validator with zero errors', async () => {
  const { solids } = await solidsOf(corpusPath('thunderscope-pcie-bracket.step'));
  const glb = writeGlb(formedMesh(solids[0], turnedFrame(30, [5, -2, 1])), { name: 'bracket' });
  const report = await validator.validateBytes(glb);
  assert.equal(report.issues.numErrors, 0, JSON.stringify(report.issues.messages.slice(0, 5)));
});

test('an empty mesh still gives a valid GLB', async () => {
  const glb = writeGlb({ positions: [], indices: [] });
  const report = await validator.validateBytes(glb);
  assert.equal(report.issues.numErrors, 0);
});
