// MCP Inspector's CLI mode lists Kerf's tools, over HTTP (with an API key) and over stdio (`kerf mcp`).
// The Inspector is run by npx, which fetches it from the npm registry the first time (it is too heavy
// for a devDependency: vite, react, a native keyring); a machine that cannot fetch it fails the test.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestService, type TestService } from './helpers/service.ts';

const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0';
const KERF = fileURLToPath(new URL('../bin/kerf.mjs', import.meta.url));
const TOOLS = ['prepare_upload', 'inspect_design', 'preview_design', 'search_catalog', 'configure_design', 'quote_designs', 'get_quote', 'get_dfm', 'create_review_link', 'get_review_link', 'create_checkout', 'get_order_production_files'];

function inspector(args: string[], timeout = 120_000): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('npx', ['-y', INSPECTOR, '--cli', ...args], { timeout, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

describe('MCP Inspector (CLI mode)', () => {
  let t: TestService;
  const dir = mkdtempSync(join(tmpdir(), 'kerf-inspector-'));
  before(async () => {
    const fetched = await inspector(['--version'], 300_000); // the first run on a machine downloads it
    assert.equal(fetched.code, 0, `npx could not run ${INSPECTOR}: ${fetched.stderr}`);
    t = await startTestService();
  });
  after(async () => { await t.close(); rmSync(dir, { recursive: true, force: true }); });

  const names = (stdout: string): string[] => (JSON.parse(stdout) as { tools: Array<{ name: string }> }).tools.map((x) => x.name);

  it('lists the tools of the hosted server', async () => {
    const r = await inspector([`${t.url}/mcp`, '--transport', 'http', '--header', `Authorization: Bearer ${t.keyA}`, '--method', 'tools/list']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(names(r.stdout), TOOLS);
  });

  it('lists the tools of kerf mcp', async () => {
    const r = await inspector([process.execPath, KERF, 'mcp', '--data-dir', join(dir, 'data'), '--method', 'tools/list']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(names(r.stdout), TOOLS);
  });
});
