// `kerf quote` / `kerf dfm` on a terminal (script(1) gives the real binary a pseudo-terminal): a
// summary that fits on one screen, colour unless NO_COLOR, `--json` for the full document; a quoted
// part in a quote piped elsewhere stays the JSON document (cli-quote-dfm.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const L_BRACKET = 'fixtures/sheet/l_t2_r2.step';
const E_PLATE = fileURLToPath(new URL('../../../shared/corpus/real/ender3-e-plate.step', import.meta.url));
const NOW = '2026-11-23T15:00:00.000Z';
/** A screen: 24 lines of a classic terminal. */
const SCREEN_LINES = 24;
const ESC = '\u001b[';

const quoteArg = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** The command's output as a person at a terminal sees it (carriage returns removed), and its exit code. */
function onTerminal(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  const cmd = [process.execPath, 'bin/kerf.mjs', ...args].map(quoteArg).join(' ');
  const { NO_COLOR: _n, ...base } = process.env;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', cmd, '/dev/null'], { cwd: ROOT, env: { ...base, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString('utf8'); });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out: out.replace(/\r/g, '') }));
  });
}

const lines = (s: string): string[] => s.split('\n').filter((l) => l !== '');

test('kerf dfm on a terminal: the part, what it needs and the material ids that fit; NO_COLOR: no colour', async () => {
  const r = await onTerminal(['dfm', L_BRACKET, '--now', NOW], { NO_COLOR: '1' });
  assert.equal(r.code, 0, r.out);
  assert.ok(!r.out.includes(ESC), 'NO_COLOR: no escape codes');
  assert.ok(lines(r.out).length <= SCREEN_LINES, r.out);
  assert.match(r.out, /^DFM report dfm_\w+: requires_input/m);
  assert.match(r.out, /sheet_metal, 2 mm, flat [\d.]+ x [\d.]+ mm, 1 bend/);
  assert.match(r.out, /needs input\s+Select a sheet material/);
  assert.match(r.out, /Next: give .+ a material_id: mat_mild_steel_2_0mm, /);
  assert.match(r.out, /--json/);
});

test('kerf quote on a terminal: prices per quantity in colour, the ordered one marked; --json: the full document', async () => {
  const config = JSON.stringify({ defaults: { material_id: 'mat_mild_steel_2_0mm' } });
  const args = ['quote', L_BRACKET, '--configuration', config, '--quantity', '4', '--quantity-options', '1,4,40', '--now', NOW];
  const r = await onTerminal(args);
  assert.equal(r.code, 0, r.out);
  assert.ok(r.out.includes(ESC), 'colour on a terminal');
  const plain = r.out.replace(/\u001b\[[0-9;]*m/g, '');
  assert.ok(lines(plain).length <= SCREEN_LINES, plain);
  assert.match(plain, /^Quote quo_\w+: ready, total \$\d+\.\d\d before shipping and tax/m);
  assert.match(plain, /mat_mild_steel_2_0mm/);
  for (const q of [1, 4, 40]) assert.match(plain, new RegExp(`^\\s+${q}\\s+\\$\\d+\\.\\d\\d\\s+\\$\\d+\\.\\d\\d`, 'm'));
  assert.match(plain, /^\s+4\s+\$[\d.]+\s+\$[\d.]+\s+<$/m);

  const j = await onTerminal([...args, '--json']);
  assert.equal(j.code, 0, j.out);
  const quote = JSON.parse(j.out) as { object: string; items: Array<{ dfm: { object: string } }> };
  assert.equal(quote.object, 'quote');
  assert.equal(quote.items[0].dfm.object, 'dfm_report');
});

test('a blocked quote on a terminal shows no total, its prices marked indicative, and the blocking finding first', async () => {
  // a real part (Creality Ender-3 E plate, 2.5 mm): its 8.4 mm flange is too short to bend in 2.5 mm steel
  const config = JSON.stringify({ defaults: { material_id: 'mat_mild_steel_2_5mm' } });
  const r = await onTerminal(['quote', E_PLATE, '--configuration', config, '--quantity', '10', '--quantity-options', '1,10,100', '--now', NOW], { NO_COLOR: '1' });
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /^Quote quo_\w+: blocked$/m);
  assert.doesNotMatch(r.out, /total \$/);
  assert.match(r.out, /indicative/);
  const findings = lines(r.out).filter((l) => /^\s+(blocking|risk|needs input|accepted)\s/.test(l));
  assert.match(findings[0], /^\s+blocking\s+A flange of bend 1/);
  assert.match(r.out, /Next: resolve the blocking findings/);
});
