// `kerf <command> ...`: each command is its own module in ./commands, loaded on demand so that
// `kerf catalog` never pays for the service or the STEP importer.
import { argv, exit, stderr, stdout } from 'node:process';
import { setFlagsFromString } from 'node:v8';
import { COMMANDS, isCommand, type CommandModule } from './commands/list.ts';
import { overview, version } from './commands/help.ts';

/** Commands that import STEP in this process (through the use cases or the engine) and end when done. */
const STEP_COMMANDS: ReadonlySet<string> = new Set(['analyze', 'dfm', 'quote']);

/**
 * A run of these commands is short, so it spends the least on the importer's 7.6 MB of WASM with V8's
 * baseline compiler only: Liftoff-only used half the CPU of V8's default (Liftoff + TurboFan tier-up)
 * for one small part and a quarter less over 20, with the first result sooner (docs/performance.md "Cold start"); the
 * optimizing compiler only pays for itself in a long-lived process (kerf serve, the library). The
 * compile itself starts now, while the command's modules load (bench/cold-start.ts measures both).
 */
function warmUpStepImport(): void {
  setFlagsFromString('--liftoff-only');
  import('@kerf/engine/warm-up').then((m) => m.warmUp()).catch(() => { /* the command's own import reports it */ });
}

function usage(): string {
  return overview();
}

async function main(): Promise<number> {
  const [name, ...rest] = argv.slice(2);
  if (name && STEP_COMMANDS.has(name) && !rest.includes('--help') && !rest.includes('-h')) warmUpStepImport();
  if (name === '--version' || name === '-V') { stdout.write(`kerf ${version()}\n`); return 0; }
  if (name === '--help' || name === '-h') { stdout.write(usage()); return 0; }
  if (!name) { stderr.write(usage()); return 2; }
  if (!isCommand(name)) {
    stderr.write(JSON.stringify({ error: { code: 'unknown_command', message: `unknown command '${name}'; one of ${COMMANDS.join(', ')}` } }) + '\n' + usage());
    return 2;
  }
  const mod = (await import(`./commands/${name}.ts`)) as CommandModule;
  return mod.run(rest);
}

// `kerf analyze *.step | head -1`: the reader has all it wants; stop quietly, as Unix tools do
stdout.on('error', (err: NodeJS.ErrnoException) => { if (err.code === 'EPIPE') exit(0); throw err; });

main().then((code) => {
  process.exitCode = code;
  // done: exit once the output is written, instead of waiting for V8's background work on the WASM
  if (STEP_COMMANDS.has(argv[2] ?? '')) stdout.write('', () => stderr.write('', () => exit(code)));
}, (err: unknown) => {
  const e = err as { code?: string; message?: string };
  stderr.write(JSON.stringify({ error: { code: e.code ?? 'internal_error', message: e.message ?? String(err) } }) + '\n');
  exit(1);
});
