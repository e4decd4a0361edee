// Every link in the README and docs/ resolves: a relative link names a file of this repository, and
// its #fragment a heading of that file (GitHub's anchors), so a newcomer following them never lands
// on a 404. Web addresses are not fetched (the tests run offline).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The documents a reader follows: the front page, the code map and every guide in docs/. */
function documents(): string[] {
  return ['README.md', 'ARCHITECTURE.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
}

/** GitHub's anchor of a heading: lower case, punctuation but - and _ dropped, spaces to -. */
export function anchorOf(heading: string): string {
  return heading.trim().toLowerCase().replace(/`/g, '').replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of withoutCode(markdown).split('\n')) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = anchorOf(m[1].replace(/\[([^\]]*)\]\([^)]*\)/g, '$1'));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** The text outside fenced code blocks and inline code (links in code are examples, not links). */
function withoutCode(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** [text](target) and ![alt](target) links, and [label]: target references. */
export function linksOf(markdown: string): string[] {
  const text = withoutCode(markdown);
  const inline = [...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
  const refs = [...text.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)].map((m) => m[1]);
  return [...inline, ...refs];
}

test('every relative link in README.md, ARCHITECTURE.md and docs/*.md names an existing file and heading', () => {
  const broken: string[] = [];
  let checked = 0;
  for (const doc of documents()) {
    const markdown = readFileSync(join(ROOT, doc), 'utf8');
    for (const link of linksOf(markdown)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto: ...
      checked++;
      const [path, fragment] = link.split('#', 2);
      const target = path === '' ? join(ROOT, doc) : join(dirname(join(ROOT, doc)), decodeURIComponent(path));
      if (!existsSync(target)) { broken.push(`${doc}: ${link} (no file ${relative(ROOT, target)})`); continue; }
      if (fragment && statSync(target).isFile() && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(fragment)) {
        broken.push(`${doc}: ${link} (no heading #${fragment} in ${relative(ROOT, target)})`);
      }
    }
  }
  assert.deepEqual(broken, []);
  assert.ok(checked > 20, `only ${checked} links found: the link reader is broken`);
});

test('the link reader finds inline, image and reference links and skips code', () => {
  const md = 'See [a](docs/a.md#x) and ![p](p.png).\n\n```\n[no](nope.md)\n```\n`[no](nope2.md)`\n[r]: other.md\n';
  assert.deepEqual(linksOf(md), ['docs/a.md#x', 'p.png', 'other.md']);
  assert.equal(anchorOf('Buying an assembly with its fasteners'), 'buying-an-assembly-with-its-fasteners');
  assert.equal(anchorOf('`kerf mcp`: local (stdio)'), 'kerf-mcp-local-stdio');
});

test('the README is a front page: under 12 KB, no developer switches in it, a link to the security notes', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  assert.ok(Buffer.byteLength(readme) < 12 * 1024, `README.md is ${Buffer.byteLength(readme)} bytes`);
  for (const internal of ['KERF_DEV', 'NODE_TEST_CONTEXT']) assert.ok(!readme.includes(internal), `${internal} belongs in docs/configuration.md`);
  assert.match(readme, /^Security notes: \[docs\/security\.md\]\(docs\/security\.md\)$/m);
});
