// The docs a user has are the repo's (#19.4): README and docs/ point at no file outside it, the API
// guide covers every configuration selection, accepted risk, webhook event and image view the code
// defines, and every environment variable the code reads is documented.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERROR_CODES, schemas } from '@kerf/usecases';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const read = (p: string): string => readFileSync(join(ROOT, p), 'utf8');
const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const GUIDE = read('docs/api.md');
/** A file a user of the repo does not have: the spec and notes the project was built from. */
const OUTSIDE = /shared\/(spec|notes)|\binterface\.md\b|\bcontract\.md\b|\/work\//;

function sources(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'dist' ? [] : sources(full);
    return /\.(ts|mjs|js)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [full] : [];
  });
}

test('README and docs/ name no file outside the repo, and their relative links resolve', () => {
  for (const doc of DOCS) {
    const text = read(doc);
    assert.doesNotMatch(text, OUTSIDE, doc);
    for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
      if (/^[a-z]+:/i.test(target)) continue;
      assert.ok(existsSync(join(ROOT, dirname(doc), target)), `${doc} links to ${target}, which is not in the repo`);
    }
  }
  assert.match(read('README.md'), /\]\(docs\/api\.md\)/, 'README points at the API guide');
});

test('the error reference the service serves (/docs/errors) names no file outside the repo', () => {
  const outside = ERROR_CODES.filter((e) => OUTSIDE.test(`${e.meaning} ${e.action}`)).map((e) => e.code);
  assert.deepEqual(outside, [], 'error codes whose meaning or action points outside the repo');
});

test('every environment variable the code reads is in README or the API guide', () => {
  const docs = DOCS.map(read).join('\n');
  const files = ['engine/src', 'service/src', 'bin', ...readdirSync(join(ROOT, 'adapters')).map((a) => `adapters/${a}/src`)].flatMap((d) => sources(join(ROOT, d)));
  const names = new Set<string>();
  const patterns = [/\benv\.([A-Z][A-Z0-9_]+)/g, /\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]/g, /\b(?:int|flag|str|num)\(env, ['"]([A-Z][A-Z0-9_]+)['"]/g];
  for (const f of files) for (const re of patterns) for (const m of readFileSync(f, 'utf8').matchAll(re)) names.add(m[1]);
  assert.ok(names.has('KERF_ENGINE_THREADS') && names.has('HOST') && names.has('LOG_LEVEL'), `the scan finds config.ts's variables: ${[...names].join(' ')}`);
  const missing = [...names].filter((n) => !new RegExp(`\\b${n}\\b`).test(docs));
  assert.deepEqual(missing, [], 'undocumented environment variables');
});

/** Property names of a JSON schema, nested objects and arrays included. */
function propertyNames(schema: unknown, into = new Set<string>()): Set<string> {
  if (typeof schema !== 'object' || schema === null) return into;
  const s = schema as { properties?: Record<string, unknown>; items?: unknown; anyOf?: unknown[] };
  for (const [k, v] of Object.entries(s.properties ?? {})) { into.add(k); propertyNames(v, into); }
  propertyNames(s.items, into);
  for (const x of s.anyOf ?? []) propertyNames(x, into);
  return into;
}

test('the API guide covers every configuration field, accepted risk, webhook event and image view', () => {
  const code = (name: string): boolean => GUIDE.includes(`\`${name}\``) || GUIDE.includes(`"${name}"`);
  const fields = [...propertyNames(schemas.Configuration)];
  assert.ok(fields.includes('countersinks') && fields.includes('joint_access'));
  assert.deepEqual(fields.filter((f) => !code(f)), [], 'configuration fields missing from docs/api.md');
  assert.deepEqual(schemas.ACCEPTABLE_RISKS.filter((r) => !code(r)), [], 'accepted risks');
  assert.deepEqual(schemas.EVENT_TYPES.filter((e) => !code(e)), [], 'webhook events');
  assert.deepEqual(schemas.IMAGE_VIEWS.filter((v) => !code(v)), [], 'image views');
  assert.match(GUIDE, /US addresses only/);
  assert.match(GUIDE, /curl -L /);
});
