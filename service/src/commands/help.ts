// `kerf help [COMMAND]`, `kerf COMMAND --help` and `kerf --version`: one text per command (what it
// does, its options, examples), so the overview, the per-command page and each command's --help agree.
import { readFileSync } from 'node:fs';
import { stderr, stdout } from 'node:process';
import { COMMANDS, isCommand, type CommandName } from './list.ts';

interface CommandHelp { summary: string; usage: string; options: Array<[string, string]>; examples: string[]; more?: string }

const DFM_CONFIG = '--configuration JSON|@file.json';

const HELP: Record<CommandName, CommandHelp> = {
  serve: {
    summary: 'run the HTTP API (/v1), the web site and the job workers',
    usage: 'kerf serve [--processes N|auto]',
    options: [['--processes N|auto', 'HTTP service processes sharing the port and the store (default KERF_WORKERS, else 1; auto: one per core)']],
    examples: ['PORT=8080 KERF_DATA_DIR=./data kerf serve', 'KERF_ENGINE_THREADS=1 kerf serve --processes 2'],
    more: 'Configured from the environment: PORT, HOST, KERF_DATA_DIR, KERF_BASE_URL, MONGODB_URL, KERF_MAX_UPLOAD_BYTES, KERF_WEBHOOK_ALLOW_HTTP_LOOPBACK, KERF_SIGNUP, ... (README: Configuration lists them all).',
  },
  analyze: {
    summary: 'analyse STEP files locally: unique parts, sheet/tube recognition, flat patterns',
    usage: 'kerf analyze FILE... [--k-factor K] [--out DIR] [--threads N]',
    options: [
      ['--k-factor K', 'bend allowance k-factor for the flat patterns (0 to 0.5; default from the material)'],
      ['--out DIR', 'write each part\'s production files (STEP, GLB, DXF, images). One file: DIR/<part id>/; several: DIR/<file stem>/<part name or id>/ and DIR/index.json'],
      ['--threads N', 'worker threads for several files (default: one per core, at most one per file)'],
    ],
    examples: ['kerf analyze bracket.step', 'kerf analyze parts/*.step --out out/ --k-factor 0.44'],
    more: 'Prints each file\'s design JSON on stdout (one line per file, in order), progress on stderr; a bad file prints {"error":{code,message,file}} on stderr and the exit code is 1.',
  },
  catalog: {
    summary: 'print one catalog (materials, finishes, hardware, ...) as JSON',
    usage: 'kerf catalog KIND [--process sheet_metal|tube_laser] [--base-url URL]',
    options: [
      ['--process P', 'finishes only: those offered for sheet_metal or tube_laser'],
      ['--base-url URL', 'the service URL that hardware model_url links start with'],
    ],
    examples: ['kerf catalog materials', 'kerf catalog finishes --process tube_laser'],
  },
  dfm: {
    summary: 'the DFM report of a STEP file under a configuration (as POST /v1/dfm)',
    usage: `kerf dfm FILE ${DFM_CONFIG} [--json] [--images] [--compact] [--now ISO] [--base-url URL]`,
    options: [
      ['--configuration C', 'the configuration object, inline JSON or @file.json (docs/api.md)'],
      ['--json', 'the full report as JSON also on a terminal (the default when stdout is not a terminal; a terminal gets a summary)'],
      ['--images', 'keep the inline SVG images in the report'],
      ['--compact', 'drop the capability lists (what each process could offer) from the report'],
      ['--now ISO', 'the clock for the run (same file, configuration and time: same ids)'],
      ['--base-url URL', 'make the report\'s links absolute URLs of that service (otherwise it carries none)'],
    ],
    examples: ['kerf dfm bracket.step --configuration \'{"defaults":{"material_id":"mat_mild_steel_2_0mm"}}\'', 'kerf dfm bracket.step --configuration @config.json --compact'],
  },
  quote: {
    summary: 'price a STEP file, with each item\'s DFM report (as POST /v1/quotes)',
    usage: `kerf quote FILE ${DFM_CONFIG} --quantity N [--quantity-options a,b,c] [--ship-to JSON] [--json] [--images] [--compact] [--now ISO] [--base-url URL]`,
    options: [
      ['--configuration C', 'the configuration object, inline JSON or @file.json'],
      ['--quantity N', 'how many (a positive integer)'],
      ['--quantity-options a,b,c', 'further quantities to price'],
      ['--ship-to JSON', 'a US address {"country":"US","postal_code":"..."} for shipping and tax'],
      ['--json', 'the full quote as JSON also on a terminal (the default when stdout is not a terminal; a terminal gets a summary)'],
      ['--images', 'keep the inline SVG images'],
      ['--compact', 'drop the capability lists from the DFM reports'],
      ['--now ISO', 'the clock for the run'],
      ['--base-url URL', 'make links absolute URLs of that service (otherwise none)'],
    ],
    examples: ['kerf quote bracket.step --configuration @config.json --quantity 10 --quantity-options 50,100'],
  },
  admin: {
    summary: 'accounts, API keys and orders in the configured store',
    usage: 'kerf admin <create-api-key|list-api-keys|revoke-api-key|create-account|order> ...',
    options: [],
    examples: ['kerf admin create-api-key --email me@example.com', 'kerf admin --help'],
    more: '`kerf admin --help` lists every subcommand and its options.',
  },
  mcp: {
    summary: 'an MCP server on stdio for a local agent (same tools as {base_url}/mcp)',
    usage: 'kerf mcp [--data-dir DIR] [--base-url URL]',
    options: [
      ['--data-dir DIR', 'the store (default KERF_DATA_DIR)'],
      ['--base-url URL', 'the URL links are made under (default KERF_BASE_URL)'],
    ],
    examples: ['kerf mcp --data-dir ./data'],
  },
  help: {
    summary: 'this overview, or one command\'s options and examples',
    usage: 'kerf help [COMMAND]',
    options: [],
    examples: ['kerf help analyze', 'kerf analyze --help'],
  },
};

/** The package's version, from its package.json (one level further up when running the build). */
export function version(): string {
  const url = new URL(import.meta.url.endsWith('.ts') ? '../../package.json' : '../../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;
}

export function overview(): string {
  const width = Math.max(...COMMANDS.map((c) => c.length));
  return [
    'usage: kerf <command> [options]', '',
    'commands:',
    ...COMMANDS.map((c) => `  ${c.padEnd(width)}  ${HELP[c].summary}`), '',
    'kerf help COMMAND (or kerf COMMAND --help): its options and examples', 'kerf --version: the version', '',
  ].join('\n');
}

function commandHelp(name: CommandName): string {
  const h = HELP[name];
  const width = Math.max(0, ...h.options.map(([o]) => o.length));
  return [
    `kerf ${name}: ${h.summary}`, '', `usage: ${h.usage}`,
    ...(h.options.length ? ['', 'options:', ...h.options.map(([o, d]) => `  ${o.padEnd(width)}  ${d}`)] : []),
    ...(h.more ? ['', h.more] : []),
    '', 'examples:', ...h.examples.map((e) => `  ${e}`), '',
  ].join('\n');
}

/** `kerf COMMAND --help`: the page on stdout, exit 0. */
export function printHelp(name: CommandName): number {
  stdout.write(commandHelp(name));
  return 0;
}

export async function run(args: string[]): Promise<number> {
  const [name, ...extra] = args;
  if (name === undefined || name === '--help' || name === '-h') { stdout.write(overview()); return 0; }
  if (extra.length > 0 || !isCommand(name)) {
    stderr.write(JSON.stringify({ error: { code: 'unknown_command', message: `unknown command '${args.join(' ')}'; one of ${COMMANDS.join(', ')}` } }) + '\n');
    return 2;
  }
  return printHelp(name);
}
