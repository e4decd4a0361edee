// `kerf <command> ...`: each command is its own module in ./commands, loaded on demand so that
// `kerf catalog` never pays for the service or the STEP importer.
import { argv, exit, stderr, stdout } from 'node:process';
import { COMMANDS, isCommand, type CommandModule } from './commands/list.ts';

function usage(): string {
  return `usage: kerf <${COMMANDS.join('|')}> [options]\n`;
}

async function main(): Promise<number> {
  const [name, ...rest] = argv.slice(2);
  if (!name || name === '--help' || name === '-h') { stderr.write(usage()); return name ? 0 : 2; }
  if (!isCommand(name)) {
    stderr.write(JSON.stringify({ error: { code: 'unknown_command', message: `unknown command '${name}'` } }) + '\n' + usage());
    return 2;
  }
  const mod = (await import(`./commands/${name}.ts`)) as CommandModule;
  return mod.run(rest);
}

// `kerf analyze *.step | head -1`: the reader has all it wants; stop quietly, as Unix tools do
stdout.on('error', (err: NodeJS.ErrnoException) => { if (err.code === 'EPIPE') exit(0); throw err; });

main().then((code) => { process.exitCode = code; }, (err: unknown) => {
  const e = err as { code?: string; message?: string };
  stderr.write(JSON.stringify({ error: { code: e.code ?? 'internal_error', message: e.message ?? String(err) } }) + '\n');
  exit(1);
});
