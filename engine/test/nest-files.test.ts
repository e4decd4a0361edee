// The nest for the shop (engine/src/nest/files.ts): per sheet a DXF whose CUT layer holds every placed
// contour and whose PART_IDS layer names every piece, read back by ezdxf (an independent reader, with
// its audit) where python3-ezdxf is installed, and an SVG picture with one shape per piece.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { nest, nestSheetDxf, nestSheetSvg, type NestRequest, type Outline } from '../src/nest/index.ts';

const ring: Outline = { outer: [[0, 0], [200, 0], [200, 200], [0, 200]], holes: [[[20, 20], [20, 180], [180, 180], [180, 20]]] };
const square: Outline = { outer: [[0, 0], [30, 0], [30, 30], [0, 30]], holes: [] };
const req: NestRequest = { items: [{ id: 'prt_ring', outline: ring, count: 2 }, { id: 'prt_sq', outline: square, count: 20 }], sheet: { length_mm: 420, width_mm: 215 }, spacing_mm: 2, margin_mm: 5 };
const outlines = new Map(req.items.map((i) => [i.id, i.outline]));
const result = nest(req);

/** DXF entities as (type, layer) pairs, read from the group codes. */
function entities(dxf: string): Array<{ type: string; layer: string; text?: string }> {
  const lines = dxf.split(/\r?\n/);
  const out: Array<{ type: string; layer: string; text?: string }> = [];
  let inEntities = false;
  for (let i = 0; i + 1 < lines.length; i += 2) {
    const code = lines[i].trim(), value = lines[i + 1].trim();
    if (code === '2' && value === 'ENTITIES') inEntities = true;
    else if (code === '0' && value === 'ENDSEC') inEntities = false;
    else if (inEntities && code === '0') out.push({ type: value, layer: '' });
    else if (inEntities && code === '8' && out.length) out[out.length - 1].layer = value;
    else if (inEntities && code === '1' && out.length) out[out.length - 1].text = value;
  }
  return out;
}

test('a sheet\'s DXF: its boundary, every placed contour on CUT, every part id on PART_IDS', () => {
  assert.equal(result.sheets.length, 1);
  const dxf = nestSheetDxf(result, outlines, 0);
  const es = entities(dxf);
  const placements = result.sheets[0].placements;
  const loops = placements.reduce((a, p) => a + 1 + outlines.get(p.id)!.holes.length, 0);
  assert.equal(es.filter((e) => e.layer === 'SHEET').length, 1);
  assert.equal(es.filter((e) => e.layer === 'CUT' && /POLYLINE/.test(e.type)).length, loops);
  const ids = es.filter((e) => e.layer === 'PART_IDS' && e.type === 'TEXT').map((e) => e.text).sort();
  assert.deepEqual(ids, placements.map((p) => p.id).sort());
  // the same nest gives the same bytes
  assert.equal(nestSheetDxf(result, outlines, 0), dxf);
  assert.throws(() => nestSheetDxf(result, outlines, 1), RangeError);
});

test('ezdxf opens the nest DXF clean: audit without errors, the same entities per layer', (t) => {
  const probe = spawnSync('/usr/bin/python3', ['-c', 'import ezdxf'], { encoding: 'utf8' });
  if (probe.status !== 0) { t.skip('python3-ezdxf is not installed (apt-get install python3-ezdxf)'); return; }
  const dir = mkdtempSync(join(tmpdir(), 'kerf-nest-'));
  try {
    const file = join(dir, 'sheet-1.dxf');
    writeFileSync(file, nestSheetDxf(result, outlines, 0));
    const script = [
      'import sys, json, ezdxf',
      'doc = ezdxf.readfile(sys.argv[1])',
      'a = doc.audit()',
      'msp = doc.modelspace()',
      'by = {}',
      'for e in msp: by[e.dxf.layer] = by.get(e.dxf.layer, 0) + 1',
      'print(json.dumps({"errors": len(a.errors), "layers": by, "units": doc.header.get("$INSUNITS")}))',
    ].join('\n');
    const r = spawnSync('/usr/bin/python3', ['-c', script, file], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const got = JSON.parse(r.stdout) as { errors: number; layers: Record<string, number>; units: number };
    const placements = result.sheets[0].placements;
    assert.equal(got.errors, 0);
    assert.equal(got.units, 4, 'millimetres');
    assert.equal(got.layers.PART_IDS, placements.length);
    assert.equal(got.layers.CUT, placements.reduce((a, p) => a + 1 + outlines.get(p.id)!.holes.length, 0));
    assert.equal(got.layers.SHEET, 1);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('a sheet\'s SVG picture: valid, one shape and one label per piece', () => {
  const svg = nestSheetSvg(result, outlines, 0, 600);
  assert.equal(XMLValidator.validate(svg), true);
  const doc = new XMLParser({ ignoreAttributes: false }).parse(svg) as { svg: { '@_width': string; g: Array<{ path?: unknown[]; text?: unknown[] }> } };
  assert.equal(doc.svg['@_width'], '600');
  const n = result.sheets[0].placements.length;
  assert.equal((doc.svg.g[0].path as unknown[]).length, n);
  assert.equal((doc.svg.g[1].text as unknown[]).length, n);
});
