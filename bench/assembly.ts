// A generated assembly of many solids (plates with holes, brackets, tube pieces, placed as real
// instances) for the bench. Cached in bench/.cache so only the first run pays for OCCT.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { drawRoundedRectangle, drawCircle, makeCylinder, type Shape3D } from 'replicad';
import { initReplicad } from '../fixtures/lib/oc.ts';
import { stepInstancedText } from '../fixtures/lib/step.ts';

const CACHE = new URL('./.cache/', import.meta.url);

function plate(length: number, width: number, t: number, holes: number): Shape3D {
  let sketch = drawRoundedRectangle(length, width, 3);
  for (let i = 0; i < holes; i++) sketch = sketch.cut(drawCircle(2.5).translate(-length / 2 + (length / (holes + 1)) * (i + 1), 0));
  return sketch.sketchOnPlane('XY').extrude(t) as Shape3D;
}

function tube(od: number, wall: number, length: number): Shape3D {
  return makeCylinder(od / 2, length).cut(makeCylinder(od / 2 - wall, length)) as Shape3D;
}

/** STEP bytes of an assembly with `solids` solids made of a handful of unique parts. */
export async function generatedAssembly(solids: number): Promise<Uint8Array> {
  const path = join(CACHE.pathname, `assembly-${solids}.step`);
  if (existsSync(path)) return new Uint8Array(readFileSync(path));
  await initReplicad();
  const kinds = [plate(80, 40, 2, 3), plate(120, 60, 3, 5), plate(50, 50, 1.5, 1), tube(30, 2, 200), tube(20, 1.5, 120)];
  const parts = kinds.map((shape) => ({ shape, poses: [] as Array<{ translate: [number, number, number] }> }));
  for (let i = 0; i < solids; i++) {
    const k = i % kinds.length;
    parts[k].poses.push({ translate: [(i % 20) * 250, Math.floor(i / 20) * 250, 0] });
  }
  const { text } = stepInstancedText(parts, 'mm');
  mkdirSync(CACHE, { recursive: true });
  writeFileSync(path, text);
  return new Uint8Array(Buffer.from(text));
}
