// The docs a user has are the repo's (#19.4): its Markdown points at no file outside it, the API
// guide covers every configuration selection, accepted risk, webhook event and image view the code
// defines, and every environment variable the code reads is documented. A reader of the code has
// the same documents (#31.8): source comments cite only files of the repo, and the sections they name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { ERROR_CODES, schemas } from '@kerf/usecases';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const read = (p: string): string => readFileSync(join(ROOT, p), 'utf8');
const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const GUIDE = read('docs/api.md');
/** A file a user of the repo does not have: the spec and notes the project was built from. */
const OUTSIDE = /shared\/(spec|notes)|\binterface\.md\b|\bcontract\.md\b|\bnotes\/[\w-]+\.md\b|\/work\//;

function sources(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'dist' ? [] : sources(full);
    return /\.(ts|mjs|js)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Every Markdown file of the repo (package READMEs, fixture notes, ARCHITECTURE.md too), relative to ROOT. */
function markdown(dir = ''): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory()) return ['node_modules', 'dist', 'out', 'data'].includes(e.name) || e.name.startsWith('.') ? [] : markdown(rel);
    return e.name.endsWith('.md') ? [rel] : [];
  });
}

test('no Markdown file of the repo names a file outside it, and their relative links resolve', () => {
  const all = markdown();
  assert.ok(DOCS.every((d) => all.includes(d)) && all.includes('engine/src/sheet/README.md'), `the walk finds the docs: ${all.join(' ')}`);
  for (const doc of all) {
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

/**
 * The comments of a source file, found by the TypeScript parser (so `//` in a string or a regex is no
 * comment), as prose: comment markers dropped, a run of `//` lines joined into one block, so a
 * section name wrapped onto the next line is still read whole.
 */
function commentsOf(file: string): Array<{ line: number; text: string }> {
  const text = readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, /\.m?ts$/.test(file) ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const ranges = new Map<number, ts.CommentRange>();
  const take = (found: ts.CommentRange[] | undefined): void => { for (const r of found ?? []) ranges.set(r.pos, r); };
  const visit = (node: ts.Node): void => {
    take(ts.getLeadingCommentRanges(text, node.getFullStart()));
    take(ts.getTrailingCommentRanges(text, node.getEnd()));
    for (const child of node.getChildren(sf)) visit(child);
  };
  visit(sf);
  const lineOf = (pos: number): number => sf.getLineAndCharacterOfPosition(pos).line + 1;
  const prose = (c: string): string => c.split('\n').map((l) => l.replace(/^\s*(?:\/\/+|\/\*+|\*+(?!\/))?/, '').replace(/\*+\/\s*$/, '')).join(' ');
  const blocks: Array<{ line: number; end: number; single: boolean; text: string }> = [];
  for (const r of [...ranges.values()].sort((a, b) => a.pos - b.pos)) {
    const single = r.kind === ts.SyntaxKind.SingleLineCommentTrivia;
    const last = blocks.at(-1);
    if (single && last?.single && lineOf(r.pos) === last.end + 1) {
      last.text += ' ' + prose(text.slice(r.pos, r.end));
      last.end = lineOf(r.pos);
    } else {
      blocks.push({ line: lineOf(r.pos), end: lineOf(r.end), single, text: prose(text.slice(r.pos, r.end)) });
    }
  }
  return blocks.map((b) => ({ line: b.line, text: b.text.replace(/\s+/g, ' ') }));
}

/** Documents outside the repo: the spec and notes the project was built from. */
const OUTSIDE_DOC = /^(?:.*\/)?(?:contract|interface)\.md$|(?:^|\/)notes\/[\w-]+\.md$/;
/** The folder beside the checkout they sit in, or any absolute path of one machine. */
const OUTSIDE_DIR = /\bshared\/|\/work\//g;

/** What is wrong with the document citations of one comment: outside files, missing files, missing sections. */
function citationProblems(file: string, comment: string): string[] {
  const problems = [...comment.matchAll(OUTSIDE_DIR)].map((m) => `names ${m[0]}, which is outside the repo`);
  const resolve = (p: string): string => (p.startsWith('./') || p.startsWith('../') ? join(dirname(file), p) : join(ROOT, p));
  for (const [, path] of comment.matchAll(/(?<![\w./-])((?:\.{1,2}\/)*[\w./-]*[\w-]\.md)\b/g)) {
    if (OUTSIDE_DOC.test(path)) problems.push(`cites ${path}, a document outside the repo`);
    else if (!existsSync(resolve(path))) problems.push(`cites ${path}, which is not in the repo`);
  }
  // `docs/api.md "Errors"`: the named section is a heading of that file
  for (const [, path, section] of comment.matchAll(/((?:\.{1,2}\/)*[\w./-]*[\w-]\.md)\s*\(?\s*"([^"]+)"/g)) {
    const target = resolve(path);
    if (!existsSync(target)) continue;
    const headings = readFileSync(target, 'utf8').split('\n').filter((l) => /^#{1,6} /.test(l)).map((l) => l.replace(/^#+ /, '').trim());
    if (!headings.includes(section)) problems.push(`cites section "${section}" of ${path}, which has no such heading`);
  }
  return problems;
}

test('source comments cite only documents of the repo, and sections those documents have', () => {
  const dirs = ['common', 'contract', 'engine', 'service', 'bin', 'bench', 'fixtures', 'test', ...readdirSync(join(ROOT, 'adapters')).map((a) => `adapters/${a}`)];
  const files = dirs.flatMap((d) => sources(join(ROOT, d)));
  assert.ok(files.length > 300 && files.some((f) => f.endsWith('engine/src/contract.ts')) && files.some((f) => f.endsWith('bin/kerf.mjs')), `the scan finds the sources: ${files.length}`);
  // the checks themselves: an outside citation, a missing file and a missing section are each caught
  const probe = (comment: string): string[] => citationProblems(join(ROOT, 'x.ts'), comment);
  assert.deepEqual(probe('// see contract.md "Quote", notes/geometry.md, protocols.md and ../shared/corpus'), [
    'names shared/, which is outside the repo', 'cites contract.md, a document outside the repo',
    'cites notes/geometry.md, a document outside the repo', 'cites protocols.md, which is not in the repo']);
  assert.deepEqual(probe('// docs/api.md "Errors", docs/commerce.md "Dropship", ARCHITECTURE.md'), []);
  assert.deepEqual(probe('/** docs/api.md ("No such section") */'), ['cites section "No such section" of docs/api.md, which has no such heading']);
  const own = commentsOf(join(ROOT, 'test/docs-self-contained.test.ts')).map((c) => c.text);
  assert.ok(own.some((c) => c.includes('A reader of the code has the same documents (#31.8)')), 'a run of // lines is read as one block');
  assert.ok(own.some((c) => c.includes('so a section name wrapped onto the next line is still read whole')), 'a /** */ block is read as prose');
  const problems = files.flatMap((f) => commentsOf(f).flatMap((c) => citationProblems(f, c.text).map((p) => `${relative(ROOT, f)}:${c.line}: ${p}`)));
  assert.deepEqual(problems, [], 'source comments citing what a reader of the repo does not have');
});
