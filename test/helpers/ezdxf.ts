// Debian's python3-ezdxf as an independent reader of the DXF files Kerf writes (.ci/run installs it).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What ezdxf reads of a DXF: its audit's error count, entities per layer, and the TEXT entities' strings. */
export interface EzdxfReading { errors: number; layers: Record<string, number>; texts: string[] }

const SCRIPT = [
  'import sys, json, ezdxf',
  'doc = ezdxf.readfile(sys.argv[1])',
  'a = doc.audit()',
  'by = {}',
  'for e in doc.modelspace(): by[e.dxf.layer] = by.get(e.dxf.layer, 0) + 1',
  'texts = [e.dxf.text for e in doc.modelspace().query("TEXT")]',
  'print(json.dumps({"errors": len(a.errors), "layers": by, "texts": texts}))',
].join('\n');

/** The DXF text as ezdxf reads it, or null where python3-ezdxf is not installed. */
export function ezdxfRead(text: string): EzdxfReading | null {
  if (spawnSync('/usr/bin/python3', ['-c', 'import ezdxf'], { encoding: 'utf8' }).status !== 0) return null;
  const dir = mkdtempSync(join(tmpdir(), 'kerf-ezdxf-'));
  try {
    const file = join(dir, 'file.dxf');
    writeFileSync(file, text);
    const r = spawnSync('/usr/bin/python3', ['-c', SCRIPT, file], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as EzdxfReading;
  } finally { rmSync(dir, { recursive: true, force: true }); }
}
