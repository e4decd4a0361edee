// The entity sniffs of engine/src/import/sniff.ts scan the file's bytes; they must answer as the
// regular expressions over the Latin-1 text they replace (kept here as the definition).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { declaredSolidCount, declaresSurfaceModel, declaresSurfacesOnly } from '../src/import/sniff.ts';

const latin1 = (b: Uint8Array): string => new TextDecoder('latin1').decode(b);
const bySolidRegex = (b: Uint8Array) => (latin1(b).match(/=\s*(MANIFOLD_SOLID_BREP|BREP_WITH_VOIDS|FACETED_BREP)\s*\(/gi) ?? []).length;
const bySurfaceRegex = (b: Uint8Array) => /=\s*(SHELL_BASED_SURFACE_MODEL|OPEN_SHELL)\s*\(/i.test(latin1(b));
const bySurfaceOnlyRegex = (b: Uint8Array) => /=\s*(SHELL_BASED_SURFACE_MODEL|OPEN_SHELL|GEOMETRIC_CURVE_SET)\s*\(/i.test(latin1(b));

const CASES = [
  '#1=MANIFOLD_SOLID_BREP(\'\',#2);',
  '#1 = manifold_solid_brep (\'\',#2);\n#3 =\tBREP_WITH_VOIDS\n(#4);',
  '#1=FACETED_BREP_SHELL(#2);#5=XMANIFOLD_SOLID_BREP(#6);',
  '#1=OPEN_SHELL(\'\',(#2));',
  '#1= \u00a0Open_Shell  (\'\',(#2));',
  '#1=OPEN_SHELLS(#2);#3=SHELL_BASED_SURFACE_MODEL (#4);',
  '#1=GEOMETRIC_CURVE_SET(\'\',(#2));',
  '= = OPEN_SHELL(', '=', 'OPEN_SHELL(', '#1=(FACETED_BREP(#2))', "#1=PRODUCT('= OPEN_SHELL (');",
];

test('the byte scans count and find the entities the regular expressions do', () => {
  for (const c of CASES) {
    const bytes = new Uint8Array([...c].map((ch) => ch.charCodeAt(0)));
    assert.equal(declaredSolidCount(bytes), bySolidRegex(bytes), c);
    assert.equal(declaresSurfaceModel(bytes), bySurfaceRegex(bytes), c);
    assert.equal(declaresSurfacesOnly(bytes), bySurfaceOnlyRegex(bytes), c);
  }
  assert.equal(declaredSolidCount(new TextEncoder().encode('#1=MANIFOLD_SOLID_BREP(#2);#3=manifold_solid_brep(#4);')), 2);
});
