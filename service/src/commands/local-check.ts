// What `kerf dfm` and `kerf quote` share: the file and options they read, the use-case context they
// run in (the engine in this process, no store), and how a failure is printed. The checks themselves
// are the use cases', so bad input gives the error the API gives.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { stderr, stdout } from 'node:process';
import { restLinks } from '@kerf/rest/links';
import { UseCaseError, type EngineContext } from '@kerf/usecases';
import { LocalEngine } from '../engine-local.ts';
import { printHelp } from './help.ts';

export class CliError extends Error {
  constructor(readonly code: string, message: string, readonly param?: string, readonly exitCode = 2) { super(message); }
}

export interface CommonArgs { file: string; configuration: unknown; baseUrl?: string; now?: string; images: boolean; compact: boolean; json: boolean; rest: Map<string, string[]> }

/** Parses FILE and the options shared by dfm and quote; `extra` names further value options. */
export async function parseCommon(args: string[], extra: string[], usage: string, command: 'dfm' | 'quote'): Promise<CommonArgs | 'help'> {
  const rest = new Map<string, string[]>();
  let file: string | undefined;
  let configText: string | undefined;
  let baseUrl: string | undefined;
  let now: string | undefined;
  let images = false;
  let compact = false;
  let json = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const eq = a.indexOf('=');
    const name = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a;
    const value = (): string => {
      if (eq > 0 && a.startsWith('--')) return a.slice(eq + 1);
      const v = args[++i];
      if (v === undefined) throw new CliError('invalid_arguments', `${name} needs a value`, name.slice(2));
      return v;
    };
    if (name === '--help' || name === '-h') { printHelp(command); return 'help'; }
    else if (name === '--configuration') configText = value();
    else if (name === '--base-url') baseUrl = value();
    else if (name === '--now') now = value();
    else if (name === '--images') images = true;
    else if (name === '--compact') compact = true;
    else if (name === '--json') json = true;
    else if (extra.includes(name)) rest.set(name, [...(rest.get(name) ?? []), value()]);
    else if (a.startsWith('-')) throw new CliError('invalid_arguments', `unknown option '${a}'`);
    else if (file === undefined) file = a;
    else throw new CliError('invalid_arguments', `unexpected argument '${a}'`);
  }
  if (!file) throw new CliError('invalid_arguments', `no input file\n${usage}`, 'file');
  if (now !== undefined && Number.isNaN(Date.parse(now))) throw new CliError('invalid_arguments', '--now must be an ISO 8601 timestamp', 'now');
  let configuration: unknown = undefined;
  if (configText !== undefined) {
    const text = configText.startsWith('@') ? await readText(configText.slice(1)) : configText;
    try { configuration = JSON.parse(text); } catch (e) {
      throw new CliError('invalid_configuration', `--configuration is not valid JSON: ${(e as Error).message}`, 'configuration');
    }
  }
  return { file, configuration, baseUrl, now, images, compact, json, rest };
}

async function readText(path: string): Promise<string> {
  try { return await readFile(path, 'utf8'); } catch (e) {
    throw new CliError('file_not_found', `cannot read ${path}: ${(e as Error).message}`, 'configuration');
  }
}

/** The STEP file's name and bytes. */
export async function readInput(file: string): Promise<{ file_name: string; bytes: Uint8Array }> {
  try {
    const buf = await readFile(file);
    return { file_name: file.split(/[\\/]/).pop() ?? file, bytes: new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength) };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'file_not_found' : 'file_unreadable';
    throw new CliError(code, `cannot read ${file}: ${(e as Error).message}`, 'file');
  }
}

const quiet = { info() {}, warn() {}, error() {} };

/**
 * The use cases' context for one run: the engine in this process, links under --base-url, the clock
 * at --now, and ids that follow from the input (same file, request and time: same ids).
 */
export function localContext(args: CommonArgs, bytes: Uint8Array, request: unknown): EngineContext {
  const now = args.now ? new Date(args.now) : new Date();
  const seed = createHash('sha256').update(bytes).update(JSON.stringify(request ?? null)).update(now.toISOString()).digest('hex');
  const counts = new Map<string, number>();
  return {
    engine: new LocalEngine(),
    links: restLinks(args.baseUrl ?? ''),
    log: quiet,
    now: () => now,
    newId: (prefix) => {
      const n = counts.get(prefix) ?? 0;
      counts.set(prefix, n + 1);
      return `${prefix}_${createHash('sha256').update(`${seed}\u0000${prefix}\u0000${n}`).digest('hex').slice(0, 24)}`;
    },
  };
}

/**
 * What `kerf dfm` / `kerf quote` print: without --images no inline SVGs; without --base-url no links
 * (a path like /v1/dfm/... names no server a local run could fetch it from); with --compact no
 * capability option lists (the catalog's taps, studs, finishes, ... offered for each part).
 */
export function forOutput<T>(report: T, args: Pick<CommonArgs, 'images' | 'compact' | 'baseUrl'>): T {
  return JSON.parse(JSON.stringify(report, (k, v: unknown) => {
    if (k === 'image_svg' && !args.images) return undefined;
    if (args.baseUrl === undefined && k.endsWith('_url') && typeof v === 'string' && v.startsWith('/')) return undefined;
    if (args.compact && k === 'capabilities' && typeof v === 'object' && v !== null && !Array.isArray(v)) {
      return Object.fromEntries(Object.entries(v).map(([name, c]) => [name, withoutOptions(c)]));
    }
    return v;
  })) as T;
}

function withoutOptions(capability: unknown): unknown {
  if (typeof capability !== 'object' || capability === null || Array.isArray(capability)) return capability;
  const { options: _options, ...rest } = capability as Record<string, unknown>;
  return rest;
}

/** The summary for a person (a terminal, no --json), else the full JSON document as before. */
export function humanOutput(args: Pick<CommonArgs, 'json'>): boolean {
  return !args.json && Boolean(stdout.isTTY);
}

/**
 * `{"error": {code, message, param?}}` on stderr. Exit 2: the arguments or the configuration are
 * wrong; 1: the file could not be analyzed, or the run failed.
 */
export function reportError(err: unknown): number {
  const e = err as { code?: string; message?: string; param?: string | null };
  const code = e.code ?? 'internal_error';
  stderr.write(JSON.stringify({ error: { code, message: e.message ?? String(err), ...(e.param ? { param: e.param } : {}) } }) + '\n');
  if (err instanceof CliError) return err.exitCode;
  if (err instanceof UseCaseError && (err.kind === 'invalid' || err.kind === 'malformed')) return err.param === 'file' ? 1 : 2;
  return 1;
}
