// The official MCP conformance suite (@modelcontextprotocol/conformance, server scenarios) against
// the hosted MCP server of a real service: `npx tsx test/mcp-conformance.ts [--scenario NAME]`.
// The suite's client sends no credentials, so a local relay adds an API key to every request; all
// else reaches /mcp as sent. The suite needs Node 22 (`npx -p node@22`, as here). docs/agents.md
// records the result. Scenarios of the suite's fixture surface that Kerf does not offer are listed in
// adapters/mcp/conformance-baseline.yml. Not part of `npm test`: it downloads the suite on first use.
import { spawn } from 'node:child_process';
import { createServer, request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { startTestService, freePort } from './helpers/service.ts';

const SUITE = '@modelcontextprotocol/conformance@0.1.16';

const t = await startTestService();
const target = new URL(t.url);
const port = await freePort();
const relay = createServer((req, res) => {
  const headers = { ...req.headers, authorization: `Bearer ${t.keyA}` };
  const up = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers }, (r) => {
    res.writeHead(r.statusCode ?? 502, r.headers);
    r.pipe(res);
  });
  up.on('error', (err) => { res.writeHead(502); res.end(String(err)); });
  req.pipe(up);
});
await new Promise<void>((resolve) => relay.listen(port, '127.0.0.1', resolve));

const BASELINE = fileURLToPath(new URL('../adapters/mcp/conformance-baseline.yml', import.meta.url));
const args = ['-y', '-p', 'node@22', '-p', SUITE, 'conformance', 'server', '--url', `http://127.0.0.1:${port}/mcp`, '--expected-failures', BASELINE, ...process.argv.slice(2)];
const code = await new Promise<number>((resolve) => {
  const child = spawn('npx', args, { stdio: 'inherit' });
  child.on('exit', (c) => resolve(c ?? 1));
});
relay.close();
await t.close();
process.exit(code);
