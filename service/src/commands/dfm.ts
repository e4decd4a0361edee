// `kerf dfm FILE --configuration JSON|@file [--base-url URL] [--now ISO]`: analyzes the STEP file and
// prints the DFM report (without the inline SVGs unless --images). Bad input: a JSON error
// {"error":{code,message,param?}} on stderr and a non-zero exit.
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { stderr, stdout } from 'node:process';
import type { Design } from '@kerf/engine/contract.ts';
import { defaultCatalog } from '@kerf/engine/catalog/index.ts';
import { InvalidConfigurationError, dfm, materialKFactors, parseConfiguration, withFlatsUsed } from '@kerf/engine/dfm/index.ts';

export class CliError extends Error {
  constructor(readonly code: string, message: string, readonly param?: string, readonly exitCode = 2) { super(message); }
}

export interface CommonArgs { file: string; configuration: unknown; baseUrl?: string; now?: string; images: boolean; rest: Map<string, string[]> }

/** Parses FILE and the options shared by dfm and quote; `extra` names further value options. */
export async function parseCommon(args: string[], extra: string[], usage: string): Promise<CommonArgs | 'help'> {
  const rest = new Map<string, string[]>();
  let file: string | undefined;
  let configText: string | undefined;
  let baseUrl: string | undefined;
  let now: string | undefined;
  let images = false;
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
    if (name === '--help' || name === '-h') { stderr.write(usage); return 'help'; }
    else if (name === '--configuration') configText = value();
    else if (name === '--base-url') baseUrl = value();
    else if (name === '--now') now = value();
    else if (name === '--images') images = true;
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
  return { file, configuration, baseUrl, now, images, rest };
}

async function readText(path: string): Promise<string> {
  try { return await readFile(path, 'utf8'); } catch (e) {
    throw new CliError('file_not_found', `cannot read ${path}: ${(e as Error).message}`, 'configuration');
  }
}

/**
 * Reads and analyzes the STEP file (the importer is loaded only here). Each part whose configured
 * material gives another K-factor than its flat was computed with is re-flattened with it (contract:
 * the flat pattern uses the material's K-factor), the same per-part rule the service applies.
 */
export async function analyzeFile(file: string, configuration?: unknown): Promise<{ design: Design; digest: string }> {
  let bytes: Uint8Array;
  try {
    const buf = await readFile(file);
    bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'file_not_found' : 'file_unreadable';
    throw new CliError(code, `cannot read ${file}: ${(e as Error).message}`, 'file');
  }
  const { analyze } = await import('@kerf/engine/analyze.ts');
  const name = file.split(/[\\/]/).pop() ?? file;
  let design: Design;
  try {
    const opts = { fileName: name, createdAt: '1970-01-01T00:00:00.000Z' };
    design = await analyze(bytes, opts);
    const kFactorByPart = design.status === 'ready' ? materialKFactors(design, configuration, defaultCatalog()) : {};
    if (Object.keys(kFactorByPart).length > 0) design = await analyze(bytes, { ...opts, kFactorByPart });
  } catch (e) {
    if (e instanceof InvalidConfigurationError) throw e;
    const err = e as { code?: string; message?: string };
    throw new CliError(err.code ?? 'analysis_failed', err.message ?? String(e), 'file', 1);
  }
  return { design, digest: createHash('sha256').update(bytes).digest('hex').slice(0, 24) };
}

export const stableId = (prefix: string, ...parts: string[]): string =>
  `${prefix}_${createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 24)}`;

/** Drops the inline SVGs (kilobytes per part) unless asked for. */
export function withoutImages<T>(report: T): T {
  return JSON.parse(JSON.stringify(report, (k, v) => (k === 'image_svg' ? undefined : v))) as T;
}

export function reportError(err: unknown): number {
  const e = err as { code?: string; message?: string; param?: string; exitCode?: number };
  const code = e.code ?? 'internal_error';
  stderr.write(JSON.stringify({ error: { code, message: e.message ?? String(err), ...(e.param ? { param: e.param } : {}) } }) + '\n');
  if (typeof e.exitCode === 'number') return e.exitCode;
  return code === 'invalid_configuration' ? 2 : 1;
}

const USAGE = 'usage: kerf dfm FILE --configuration JSON|@file.json [--base-url URL] [--now ISO] [--images]\n';

export async function run(args: string[]): Promise<number> {
  try {
    const a = await parseCommon(args, [], USAGE);
    if (a === 'help') return 0;
    parseConfiguration(a.configuration); // a malformed configuration fails before the (slow) analysis
    const { design, digest } = await analyzeFile(a.file, a.configuration);
    if (design.status !== 'ready') throw new CliError(design.error?.code ?? 'analysis_failed', design.error?.message ?? 'analysis failed', 'file', 1);
    const now = a.now ?? new Date().toISOString();
    const id = stableId('dfm', digest, JSON.stringify(a.configuration ?? null), now);
    const report = withFlatsUsed(dfm(design, a.configuration, defaultCatalog(), { id, now, baseUrl: a.baseUrl }), design);
    stdout.write(JSON.stringify(a.images ? report : withoutImages(report), null, 2) + '\n');
    return 0;
  } catch (err) {
    return reportError(err);
  }
}
