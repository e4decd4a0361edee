// `kerf analyze FILE... [--k-factor K] [--out DIR]`: the design JSON of each file on stdout (one
// document per line), progress on stderr; with --out, each part's production files (STEP,
// GLB, DXF, images) under DIR/<part id>/. Bad input: a JSON error {"error":{code,message}} on stderr and a non-zero exit.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { stderr, stdout } from 'node:process';
import { analyzeModel, type AnalyzedModel } from '@kerf/engine';
import { productionFilesForModel, writeProductionFiles } from '@kerf/engine/files/index.ts';

const USAGE = 'usage: kerf analyze FILE... [--k-factor K] [--out DIR]\n';

interface Args { files: string[]; kFactor?: number; out?: string }

class UsageError extends Error {}

function parseArgs(args: string[]): Args | 'help' {
  const out: Args = { files: [] };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const value = (): string => {
      const eq = a.indexOf('=');
      if (eq >= 0) return a.slice(eq + 1);
      const v = args[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value`);
      return v;
    };
    if (a === '--help' || a === '-h') return 'help';
    if (a === '--k-factor' || a.startsWith('--k-factor=')) {
      const raw = value();
      const k = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(k)) throw new UsageError(`--k-factor must be a number, got '${raw}'`);
      out.kFactor = k;
    } else if (a === '--out' || a.startsWith('--out=')) {
      out.out = value();
    } else if (a === '--') {
      out.files.push(...args.slice(i + 1));
      break;
    } else if (a.startsWith('-') && a !== '-') {
      throw new UsageError(`unknown option '${a}'`);
    } else {
      out.files.push(a);
    }
  }
  if (out.files.length === 0) throw new UsageError('no input file');
  return out;
}

function printError(code: string, message: string, file?: string): void {
  stderr.write(JSON.stringify({ error: file === undefined ? { code, message } : { code, message, file } }) + '\n');
}

/** Every production file of every part (exact STEP, GLB, DXF, SVG/PNG views) under DIR/<part id>/. */
async function writePartFiles(dir: string, bytes: Uint8Array, model: AnalyzedModel): Promise<string[]> {
  return writeProductionFiles(dir, await productionFilesForModel(bytes, model.parts));
}

async function readInput(file: string): Promise<Uint8Array> {
  try {
    const buf = await readFile(file);
    return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ENOENT') throw Object.assign(new Error(`no such file: ${file}`), { code: 'file_not_found' });
    if (e.code === 'EISDIR') throw Object.assign(new Error(`is a directory: ${file}`), { code: 'invalid_file' });
    throw Object.assign(new Error(`cannot read ${file}: ${e.message}`), { code: 'file_unreadable' });
  }
}

export async function run(argv: string[]): Promise<number> {
  let args: Args | 'help';
  try {
    args = parseArgs(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    printError('invalid_arguments', err.message);
    stderr.write(USAGE);
    return 2;
  }
  if (args === 'help') { stdout.write(USAGE); return 0; }
  let failures = 0;
  const n = args.files.length;
  for (let i = 0; i < n; i++) {
    const file = args.files[i];
    const started = Date.now();
    stderr.write(`kerf analyze: [${i + 1}/${n}] ${file}\n`);
    try {
      const bytes = await readInput(file);
      const model = await analyzeModel(bytes, { fileName: basename(file), ...(args.kFactor === undefined ? {} : { kFactor: args.kFactor }) });
      stdout.write(JSON.stringify(model.design) + '\n');
      let note = '';
      if (args.out) {
        const written = await writePartFiles(args.out, bytes, model);
        note = `, ${written.length} file(s) in ${args.out}`;
      }
      const d = model.design;
      stderr.write(`kerf analyze: [${i + 1}/${n}] ${file}: ${d.parts.length} unique part(s), ${d.part_instances.length} instance(s) in ${Date.now() - started} ms${note}\n`);
    } catch (err) {
      failures++;
      const e = err as { code?: unknown; message?: unknown };
      printError(typeof e.code === 'string' ? e.code : 'analysis_failed', typeof e.message === 'string' ? e.message : String(err), file);
    }
  }
  return failures === 0 ? 0 : 1;
}
