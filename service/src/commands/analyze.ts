// `kerf analyze FILE... [--k-factor K] [--out DIR] [--threads N]`: the design JSON of each file on
// stdout (one document per line, in the order given), progress on stderr; with --out, each part's
// production files (STEP, GLB, DXF, images) under DIR/<part id>/ for one file, or for several under
// DIR/<file stem>/<part name or id>/ with DIR/index.json saying which is which. Bad input: a JSON error
// {"error":{code,message,file}} on stderr and a non-zero exit; the other files are still analysed.
// Several files go through the worker pool, one per core: in parallel, and a file that hangs or
// exhausts memory fails alone (analysis_timeout / analysis_failed) instead of taking the run down.
import { readFile, writeFile } from 'node:fs/promises';
import { basename, extname, join, relative } from 'node:path';
import { availableParallelism } from 'node:os';
import { stderr, stdout } from 'node:process';
import { printHelp } from './help.ts';
import { analyze, analyzeWithFiles, createEngine, K_FACTOR_MAX, K_FACTOR_MIN, safeFolderName, writeProductionFiles, type Design, type ProductionFiles } from '@kerf/engine';

const USAGE = 'usage: kerf analyze FILE... [--k-factor K] [--out DIR] [--threads N]\n';

interface Args { files: string[]; kFactor?: number; out?: string; threads?: number }

class UsageError extends Error {
  constructor(message: string, readonly code = 'invalid_arguments') { super(message); }
}

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
      // the library's range and code, named as the user typed it (the library says kFactor)
      if (k <= K_FACTOR_MIN || k > K_FACTOR_MAX) throw new UsageError(`--k-factor must be a number in (${K_FACTOR_MIN}, ${K_FACTOR_MAX}] (ANSI convention), got ${k}`, 'invalid_configuration');
      out.kFactor = k;
    } else if (a === '--out' || a.startsWith('--out=')) {
      out.out = value();
    } else if (a === '--threads' || a.startsWith('--threads=')) {
      const raw = value();
      const n = Number(raw);
      if (!Number.isInteger(n) || n < 1) throw new UsageError(`--threads must be a positive integer, got '${raw}'`);
      out.threads = n;
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
    printError(err.code, err.message);
    stderr.write(USAGE);
    return 2;
  }
  if (args === 'help') return printHelp('analyze');
  const n = args.files.length;
  // one file runs in this thread (no pool start-up to pay); several share the cores
  const threads = args.threads ?? (n > 1 ? Math.min(n, availableParallelism()) : 0);
  const engine = threads > 0 ? createEngine({ threads, maxQueue: n }) : null;
  // the pool and the in-process engine have the same two calls
  const impl = engine ?? { analyze, analyzeWithFiles };
  const k = args.kFactor === undefined ? {} : { kFactor: args.kFactor };
  const out = args.out;
  const analyse = async (bytes: Uint8Array, fileName: string): Promise<{ design: Design; files: ProductionFiles | null }> => out
    ? impl.analyzeWithFiles(bytes, { fileName, ...k })
    : { design: await impl.analyze(bytes, { fileName, ...k }), files: null };
  let failures = 0;

  // a file's time counts from when a worker takes it, not while it waits behind the others
  const slots = limiter(Math.max(1, threads));
  const layout = out && n > 1 ? new OutLayout(out) : null;

  const one = async (i: number): Promise<() => Promise<void>> => {
    const file = args.files[i];
    try {
      const bytes = await readInput(file);
      const { design, files, ms } = await slots(async () => {
        const started = Date.now();
        const r = await analyse(bytes, basename(file));
        return { ...r, ms: Date.now() - started };
      });
      // written in input order by the caller, so stdout stays one document per line in FILE order
      return async () => {
        stdout.write(JSON.stringify(design) + '\n');
        let written: string[] | null = null;
        if (out && files) written = layout ? await layout.write(file, design, files) : await writeProductionFiles(out, files);
        const note = written ? `, ${written.length} file(s) in ${out}` : '';
        stderr.write(`kerf analyze: [${i + 1}/${n}] ${file}: ${design.parts.length} unique part(s), ${design.part_instances.length} instance(s) in ${ms} ms${note}\n`);
      };
    } catch (err) {
      return async () => {
        failures++;
        const e = err as { code?: unknown; message?: unknown };
        const code = typeof e.code === 'string' ? e.code : 'analysis_failed';
        const message = typeof e.message === 'string' ? e.message : String(err);
        layout?.failed(file, code, message);
        printError(code, message, file);
      };
    }
  };

  try {
    // a few files per thread read and in flight: a long list does not sit in memory, and one slow
    // file holds back only the printing, not the other workers, for a while
    const window = Math.max(1, threads) * 4;
    const pending: Array<Promise<() => Promise<void>>> = [];
    let next = 0;
    const launch = (): void => {
      const i = next++;
      stderr.write(`kerf analyze: [${i + 1}/${n}] ${args.files[i]}\n`);
      pending.push(one(i));
    };
    while (next < n && pending.length < window) launch();
    while (pending.length > 0) {
      const report = await pending.shift()!;
      await report();
      if (next < n) launch();
    }
    await layout?.writeIndex();
  } finally {
    await engine?.close();
  }
  return failures === 0 ? 0 : 1;
}

/** Runs at most `n` of the given tasks at a time, the others waiting in call order. */
function limiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (task) => {
    if (running >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try { return await task(); } finally { running--; waiting.shift()?.(); }
  };
}

interface IndexEntry { file: string; dir?: string; design_id?: string; status?: string; parts?: Array<{ id: string; name: string; dir: string; files: string[] }>; error?: { code: string; message: string } }

/**
 * --out with several files: DIR/<file stem>/<part name or id>/, so two files' parts never share a
 * folder and a person finds a part by its name; DIR/index.json maps each input file and part to its folder.
 */
class OutLayout {
  private readonly entries: IndexEntry[] = [];
  private readonly stems = new Set<string>();
  constructor(private readonly root: string) {}

  async write(file: string, design: Design, files: ProductionFiles): Promise<string[]> {
    const dir = join(this.root, this.uniqueStem(file));
    const names = new Map<string, string>();
    const taken = new Set<string>();
    for (const p of design.parts) {
      // a part's name when it names it alone (safe as a folder name), its id otherwise
      const name = segment(p.name);
      const folder = name && !taken.has(name) && !design.parts.some((q) => q !== p && q.name === p.name) ? name : segment(p.id);
      taken.add(folder);
      names.set(p.id, folder);
    }
    const byFolder: ProductionFiles = {};
    for (const [partId, kinds] of Object.entries(files)) byFolder[names.get(partId) ?? segment(partId)] = kinds;
    const written = await writeProductionFiles(dir, byFolder);
    const rel = (path: string): string => relative(this.root, path).split('\\').join('/');
    this.entries.push({
      file, dir: rel(dir), design_id: design.id, status: design.status,
      parts: design.parts.map((p) => {
        const partDir = join(dir, names.get(p.id) ?? segment(p.id));
        return { id: p.id, name: p.name, dir: rel(partDir), files: written.filter((w) => w.startsWith(partDir + '/') || w.startsWith(partDir + '\\')).map(rel) };
      }),
    });
    return written;
  }

  failed(file: string, code: string, message: string): void { this.entries.push({ file, error: { code, message } }); }

  async writeIndex(): Promise<void> {
    await writeFile(join(this.root, 'index.json'), JSON.stringify({ object: 'list', data: this.entries }, null, 2) + '\n');
  }

  private uniqueStem(file: string): string {
    const stem = segment(basename(file, extname(file))) || 'file';
    let s = stem;
    for (let k = 2; this.stems.has(s); k++) s = `${stem}-${k}`;
    this.stems.add(s);
    return s;
  }
}

/** A folder name that stays inside its parent ('' for a name with nothing usable, so the id is taken). */
function segment(name: string): string {
  return name === '' ? '' : safeFolderName(name);
}
