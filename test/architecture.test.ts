// The package boundaries and layering, checked by test/helpers/architecture.ts: first on this
// repository, then on a small synthetic workspace where each rule must fire exactly where a
// violation was planted (and nowhere on the clean tree).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkArchitecture, type Violation } from './helpers/architecture.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const show = (vs: Violation[]): string => vs.map((v) => `${v.rule}  ${v.file}  ${v.message}`).join('\n');

test('the repository keeps its architecture', () => {
  const violations = checkArchitecture(ROOT);
  if (violations.length > 0) assert.fail(`${violations.length} architecture violation(s):\n${show(violations)}`);
});

// ---- self-test on a synthetic workspace --------------------------------------------------------

const json = (o: object): string => JSON.stringify(o, null, 2);
/** An entry point as packages ship it: built from <x>.ts into dist/. */
const built = (x: string): object => ({ types: `./dist/${x}.d.ts`, default: `./dist/${x}.js` });
/** The root tsconfig.json mapping each entry point to its source (development runs the sources). */
const devPaths = (paths: Record<string, string>): string => `{\n  // comments are allowed\n  "compilerOptions": { "paths": ${JSON.stringify(Object.fromEntries(Object.entries(paths).map(([k, v]) => [k, [v]])))} }\n}\n`;
const PATHS: Record<string, string> = {
  '@kerf/engine': './engine/src/index.ts', '@kerf/engine/testing': './engine/src/testing.ts', '@kerf/usecases': './adapters/usecases/src/index.ts',
  '@kerf/rest': './adapters/rest/src/index.ts', '@kerf/service': './service/src/index.ts',
};
/** A package's tsconfig.build.json, referencing the builds of the packages it depends on. */
const buildConfig = (...refs: string[]): string => json({ extends: '../tsconfig.base.json', include: ['src'], references: refs.map((path) => ({ path })) });
const CLEAN: Record<string, string> = {
  'tsconfig.json': devPaths(PATHS),
  'tsconfig.build.json': json({ files: [], references: ['engine', 'adapters/usecases', 'adapters/rest', 'service'].map((d) => ({ path: `./${d}/tsconfig.build.json` })) }),
  'engine/tsconfig.build.json': buildConfig(),
  'adapters/usecases/tsconfig.build.json': buildConfig('../../engine/tsconfig.build.json'),
  'adapters/rest/tsconfig.build.json': buildConfig('../usecases/tsconfig.build.json'),
  'service/tsconfig.build.json': buildConfig('../engine/tsconfig.build.json', '../adapters/usecases/tsconfig.build.json', '../adapters/rest/tsconfig.build.json'),
  'package.json': json({ name: 'synth', private: true, type: 'module', workspaces: ['engine', 'adapters/*', 'service'],
    devDependencies: { 'dev-tool': '1', '@kerf/engine': '*', '@kerf/service': '*' } }),
  'ARCHITECTURE.md': '# Architecture\n\n`engine` < `adapters/usecases` < `adapters/rest` < `service`.\n\n## Invariants\n\n- layers point down\n',
  'engine/package.json': json({ name: '@kerf/engine', exports: { '.': built('src/index'), './testing': built('src/testing') }, dependencies: { 'geom-lib': '1' } }),
  'engine/src/contract.ts': 'export interface Part { w: number; h: number }\n',
  'engine/src/geometry/area.ts': "import type { Part } from '../contract.ts';\nexport const area = (p: Part): number => p.w * p.h;\n",
  'engine/src/index.ts': [
    "import { area } from './geometry/area.ts';",
    "import type { Part } from './contract.ts';",
    "import { scale } from 'geom-lib/vec';",
    "import { readFileSync } from 'node:fs';",
    "import path from 'path';",
    "// import { cli } from '../../service/src/cli.ts'; and import('@kerf/rest/src/app.ts') in a comment",
    "export const note = \"import x from 'undeclared-lib'; '/v2/designs'\";",
    'export const measure = (p: Part): number => scale(area(p)) + path.sep.length + String(readFileSync).length;',
    "export { area } from './geometry/area.ts';",
  ].join('\n'),
  'engine/src/testing.ts': 'export const sample = { w: 1, h: 2 };\n',
  'engine/test/area.test.ts': "import { area } from '../src/geometry/area.ts';\nimport check from 'dev-tool';\nimport { sample } from '@kerf/engine/testing';\ncheck(area(sample));\n",
  'adapters/usecases/package.json': json({ name: '@kerf/usecases', exports: { '.': built('src/index') }, dependencies: { '@kerf/engine': '*' } }),
  'adapters/usecases/src/index.ts': [
    "import { measure } from '@kerf/engine';",
    "import type { Part } from '@kerf/engine';",
    'export const MAX_PAGE_SIZE = 500;',
    'export class NotFound extends Error { constructor(readonly code: string) { super(code); } }',
    'const buffer = new Uint8Array(256);',
    "export function price(p: Part): object { if (p.w > MAX_PAGE_SIZE) throw new NotFound('too_big'); return { status: 'ready', amount: measure(p) * 200 + buffer.length }; }",
  ].join('\n'),
  'adapters/rest/package.json': json({ name: '@kerf/rest', exports: { '.': built('src/index') }, dependencies: { '@kerf/usecases': '*', fastify: '5' } }),
  'adapters/rest/src/index.ts': [
    "import type { FastifyInstance } from 'fastify';",
    "import { price } from '@kerf/usecases';",
    '// the service calls Fastify() and registers these routes',
    "export function routes(app: FastifyInstance): void { app.get('/v1/price', async (_req, reply) => reply.header('retry-after', '1').code(404).send(price({ w: 1, h: 1 }))); }",
  ].join('\n'),
  'service/package.json': json({ name: '@kerf/service', exports: { '.': built('src/index') }, dependencies: { '@kerf/engine': '*', '@kerf/usecases': '*', '@kerf/rest': '*', fastify: '5' } }),
  'service/src/index.ts': "import Fastify from 'fastify';\nimport { routes } from '@kerf/rest';\nexport const app = Fastify();\nroutes(app);\n",
  'service/src/commands/dfm.ts': "import { price } from '@kerf/usecases';\nimport type { Part } from '@kerf/engine';\nimport { print } from './print.ts';\nexport const run = (p: Part): void => print(price(p));\n",
  'service/src/commands/quote.ts': "import { price } from '@kerf/usecases';\nimport { type Part as P } from '@kerf/engine';\nimport { print } from './print.ts';\nexport const run = (): void => print(price({ w: 2, h: 2 } as P));\n",
  'service/src/commands/print.ts': 'export const print = (x: unknown): void => console.log(JSON.stringify(x));\n',
  'service/test/cli.test.ts': "import { run } from '../src/commands/dfm.ts';\nimport { sample } from '@kerf/engine/testing';\nrun(sample);\n",
  'test/e2e.test.ts': "import { app } from '@kerf/service';\nimport check from 'dev-tool';\nconst s = \"from '../engine/src/index.ts'\";\n/* import x from '../engine/src/index.ts' */\ncheck(app, s);\n",
  'bench/run.ts': "import { measure } from '@kerf/engine';\nmeasure({ w: 1, h: 1 });\n",
};

const dirs: string[] = [];
after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

/** The clean tree with `plant` written over it (null deletes a file), checked. */
function checkTree(plant: Record<string, string | null> = {}): Violation[] {
  const dir = mkdtempSync(join(tmpdir(), 'kerf-arch-'));
  dirs.push(dir);
  for (const [file, text] of Object.entries({ ...CLEAN, ...plant })) {
    if (text === null) continue;
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return checkArchitecture(dir);
}

test('self-test: the clean synthetic tree has no violations (comments and strings are not imports)', () => {
  assert.deepEqual(checkTree(), []);
});

const cases: Array<{ rule: string; what: string; plant: Record<string, string | null>; files: string[] }> = [
  { rule: 'exports-closed', what: 'a wildcard export; five entry points',
    plant: { 'engine/package.json': json({ name: '@kerf/engine', exports: { '.': built('src/index'), './testing': built('src/testing'), './*': './src/*' }, dependencies: { 'geom-lib': '1' } }),
      'adapters/usecases/package.json': json({ name: '@kerf/usecases', exports: Object.fromEntries(['.', './b', './c', './d', './e'].map((k) => [k, built('src/index')])), dependencies: { '@kerf/engine': '*' } }),
      'tsconfig.json': devPaths({ ...PATHS, ...Object.fromEntries(['b', 'c', 'd', 'e'].map((k) => [`@kerf/usecases/${k}`, './adapters/usecases/src/index.ts'])) }) },
    files: ['adapters/usecases/package.json', 'engine/package.json'] },
  { rule: 'exports-built', what: 'an entry point that is TypeScript source; one built from a missing file; an entry without its dev path; no build config; a build left out of the solution; a build that does not build its dependency first',
    plant: { 'engine/package.json': json({ name: '@kerf/engine', exports: { '.': './src/index.ts', './testing': built('src/testing') }, dependencies: { 'geom-lib': '1' } }),
      'adapters/usecases/package.json': json({ name: '@kerf/usecases', exports: { '.': built('src/gone') }, dependencies: { '@kerf/engine': '*' } }),
      'tsconfig.json': devPaths({ ...PATHS, '@kerf/engine/testing': './engine/src/index.ts', '@kerf/usecases': './adapters/usecases/src/gone.ts' }),
      'adapters/rest/tsconfig.build.json': null,
      'tsconfig.build.json': json({ files: [], references: ['engine', 'adapters/usecases', 'adapters/rest'].map((d) => ({ path: `${d}/tsconfig.build.json` })) }),
      'service/tsconfig.build.json': buildConfig('../engine/tsconfig.build.json', '../adapters/rest/tsconfig.build.json') },
    files: ['engine/package.json', 'tsconfig.json', 'adapters/usecases/package.json', 'adapters/rest/tsconfig.build.json', 'tsconfig.build.json', 'service/tsconfig.build.json'] },
  { rule: 'internal-import', what: 'relative path into another package (root test/, import type) and deep package paths (export from, dynamic import)',
    plant: { 'test/deep.test.ts': "import { area } from '../engine/src/geometry/area.ts';\narea;\n",
      'adapters/usecases/src/types.ts': "import type { Part } from '../../../engine/src/contract.ts';\nexport type P = Part;\n",
      'service/src/deep.ts': "export { area } from '@kerf/engine/src/geometry/area.ts';\n",
      'adapters/rest/src/lazy.ts': "export const load = (): Promise<unknown> => import('@kerf/usecases/src/index.ts');\n" },
    files: ['adapters/rest/src/lazy.ts', 'adapters/usecases/src/types.ts', 'service/src/deep.ts', 'test/deep.test.ts'] },
  { rule: 'undeclared-dependency', what: 'type-only subpath import, a dev tool in src/, unknown packages in a package test and in bench/',
    plant: { 'engine/src/geometry/big.ts': "import type { Big } from 'big-lib/types';\nexport type B = Big;\n",
      'adapters/usecases/src/clock.ts': "import check from 'dev-tool';\nexport const now = check;\n",
      'engine/test/extra.test.ts': "import x from 'unknown-lib';\nx;\n",
      'bench/other.ts': "import y from '@scope/thing/deep';\ny;\n" },
    files: ['adapters/usecases/src/clock.ts', 'bench/other.ts', 'engine/src/geometry/big.ts', 'engine/test/extra.test.ts'] },
  { rule: 'transport-in-engine', what: 'a /v1 path in engine/src',
    plant: { 'engine/src/contract.ts': "export interface Part { w: number; h: number }\nexport const DESIGNS = '/v1/designs';\n" },
    files: ['engine/src/contract.ts'] },
  { rule: 'layer-direction', what: 'usecases imports an adapter above it (and so a package cycle); an engine folder cycle',
    plant: { 'adapters/usecases/package.json': json({ name: '@kerf/usecases', exports: { '.': built('src/index') }, dependencies: { '@kerf/engine': '*', '@kerf/rest': '*' } }),
      'adapters/usecases/tsconfig.build.json': buildConfig('../../engine/tsconfig.build.json', '../rest/tsconfig.build.json'),
      'adapters/usecases/src/web.ts': "import { routes } from '@kerf/rest';\nexport { routes };\n",
      // a folder cycle without a file cycle: contract.ts -> geometry/unit.ts; geometry/area.ts -> contract.ts
      'engine/src/geometry/unit.ts': 'export const UNIT = 1;\n',
      'engine/src/contract.ts': "import type { UNIT } from './geometry/unit.ts';\nexport interface Part { w: number; h: number }\nexport type Unit = typeof UNIT;\n" },
    files: ['adapters/rest/package.json', 'adapters/usecases/src/web.ts', 'engine/src/contract.ts'] },
  { rule: 'file-cycle', what: 'two files of one package that import each other (one of them type-only)',
    plant: { 'engine/src/geometry/area.ts': "import type { Part } from '../contract.ts';\nimport { unit } from './unit.ts';\nexport const area = (p: Part): number => p.w * p.h * unit;\n",
      'engine/src/geometry/unit.ts': "import type { area } from './area.ts';\nexport const unit = 1;\nexport type A = typeof area;\n" },
    files: ['engine/src/geometry/area.ts'] },
  { rule: 'feature-entry', what: 'a use case reaching into another feature folder past its index',
    plant: { 'adapters/usecases/src/quotes/index.ts': "export { price } from './price.ts';\n",
      'adapters/usecases/src/quotes/price.ts': "import { measure } from '@kerf/engine';\nexport const price = (): number => measure({ w: 1, h: 1 });\n",
      'adapters/usecases/src/carts/index.ts': "import { price } from '../quotes/price.ts';\nimport { price as p2 } from '../quotes/index.ts';\nexport const total = price() + p2();\n" },
    files: ['adapters/usecases/src/carts/index.ts'] },
  { rule: 'cli-through-usecases', what: 'quote without the use case; the engine value-imported through another commands file',
    plant: { 'service/src/commands/quote.ts': "import { print } from './print.ts';\nexport const run = (): void => print(1);\n",
      'service/src/commands/print.ts': "import { measure } from '@kerf/engine';\nexport const print = (x: unknown): void => console.log(x, measure);\n" },
    files: ['service/src/commands/dfm.ts', 'service/src/commands/quote.ts', 'service/src/commands/quote.ts'] },
  { rule: 'no-http-status-in-usecases', what: 'new X(404), status: 409, statusCode, status = 503, a retry-after header',
    plant: { 'adapters/usecases/src/http.ts': [
      'export class HttpError extends Error { constructor(readonly status: number, m: string) { super(m); } }',
      "export const missing = (): never => { throw new HttpError(404, 'not_found'); };",
      'export const conflict = { status: 409 };',
      'export const statusCode = 0;',
      'export function fail(res: { status: number }): void { res.status = 503; }',
      "export const headers = { 'retry-after': '2' };",
    ].join('\n') },
    files: Array(5).fill('adapters/usecases/src/http.ts') },
  { rule: 'caches-in-one-place', what: 'a module-level BoundedMap, WeakMap and `let` in a use case; a fixed Set and state in dfm/quote-cache.ts pass',
    plant: { 'adapters/usecases/src/quotes/memo.ts': [
      'declare class BoundedMap<K, V> { constructor(max: number); get(k: K): V | undefined }',
      'const recent = new BoundedMap<string, number>(8);',
      'const seen = new WeakMap<object, number>();',
      'let hits = 0;',
      "const FIXED = new Set(['a', 'b']);",
      'export const note = (k: string): number => { hits++; seen.set({}, 1); return recent.get(k) ?? FIXED.size + hits; };',
    ].join('\n'),
    'adapters/usecases/src/dfm/quote-cache.ts': "const kept = new WeakMap<object, string>();\nlet n = 0;\nexport const keep = (o: object): void => { kept.set(o, String(n++)); };\n" },
    files: Array(3).fill('adapters/usecases/src/quotes/memo.ts') },
  { rule: 'records-from-contract', what: 'a record interface spelling a public field; an override not named in its Omit<>; `_` keys and Omit<>-named overrides pass',
    plant: { 'adapters/store/src/records/quotes.ts': [
      'declare const Quote: { id: string; items: object[] };',
      'export interface QuoteRecord { id: string; _design_id?: string }',
      "export type CartRecord = Omit<typeof Quote, 'items'> & { items: string[]; status: string; _token: string };",
      'export interface ChargeIntent { key: string }',
    ].join('\n'),
    'adapters/usecases/src/dropship/items.ts': 'export interface ItemDoc { sku: string; _allocations: object }\nexport interface DropshipPart { id: string }\n' },
    files: [...Array(2).fill('adapters/store/src/records/quotes.ts'), 'adapters/usecases/src/dropship/items.ts'] },
  { rule: 'fastify-in-service-only', what: 'an adapter creates fastify (default and named import)',
    plant: { 'adapters/rest/src/server.ts': "import Fastify from 'fastify';\nexport const server = Fastify({ logger: false });\n",
      'adapters/rest/src/named.ts': "import { fastify as make } from 'fastify';\nexport const server = make();\n" },
    files: ['adapters/rest/src/named.ts', 'adapters/rest/src/server.ts'] },
  { rule: 'no-test-builders-in-src', what: 'an examples file and TEST_OPS in src/',
    plant: { 'engine/src/dfm/examples.ts': 'export const sheetPart = {};\n', 'engine/src/pool/worker.ts': 'const TEST_OPS = {};\nexport default TEST_OPS;\n' },
    files: ['engine/src/dfm/examples.ts', 'engine/src/pool/worker.ts'] },
  { rule: 'architecture-doc', what: 'a new adapter (found by the adapters/* glob) it does not mention; no Invariants heading',
    plant: { 'ARCHITECTURE.md': '# Architecture\n\n`engine`, `adapters/usecases`, `adapters/rest`, `service`.\n\n## Rules\n',
      'adapters/webhooks/package.json': json({ name: '@kerf/webhooks', exports: { '.': built('src/index') }, dependencies: { '@kerf/usecases': '*' } }),
      'adapters/webhooks/tsconfig.build.json': buildConfig('../usecases/tsconfig.build.json'),
      'tsconfig.json': devPaths({ ...PATHS, '@kerf/webhooks': './adapters/webhooks/src/index.ts' }),
      'tsconfig.build.json': json({ files: [], references: ['engine', 'adapters/usecases', 'adapters/rest', 'adapters/webhooks', 'service'].map((d) => ({ path: `${d}/tsconfig.build.json` })) }),
      'adapters/webhooks/src/index.ts': "import { price } from '@kerf/usecases';\nexport const hook = price;\n" },
    files: ['ARCHITECTURE.md', 'ARCHITECTURE.md'] },
  { rule: 'architecture-doc', what: 'no ARCHITECTURE.md', plant: { 'ARCHITECTURE.md': null }, files: ['ARCHITECTURE.md'] },
];

for (const c of cases) {
  test(`self-test: ${c.rule} fires exactly where planted (${c.what})`, () => {
    const found = checkTree(c.plant);
    assert.deepEqual(found.map((v) => `${v.rule} ${v.file}`).sort(), c.files.map((f) => `${c.rule} ${f}`).sort(), show(found));
  });
}

test('self-test: cycles are reported as a path', () => {
  const found = checkTree(cases.find((c) => c.rule === 'layer-direction')!.plant);
  assert.ok(found.some((v) => v.message.includes('package import cycle: @kerf/rest -> @kerf/usecases -> @kerf/rest')), show(found));
  assert.ok(found.some((v) => v.message.includes('folder cycle: contract.ts -> geometry -> contract.ts')), show(found));
  const files = checkTree(cases.find((c) => c.rule === 'file-cycle')!.plant);
  assert.ok(files.some((v) => v.message.includes('import cycle: engine/src/geometry/area.ts -> engine/src/geometry/unit.ts -> engine/src/geometry/area.ts')), show(files));
});
