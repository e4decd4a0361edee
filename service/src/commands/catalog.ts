// `kerf catalog KIND [--process sheet_metal|tube_laser]`: one catalog as {object:"list", data, has_more,
// next_cursor} on stdout. Loads only the catalog module, never the importer.
import { stderr, stdout } from 'node:process';
import { CATALOG_KINDS, catalogEntries, defaultCatalog, isCatalogKind } from '@kerf/engine/catalog/index.ts';

const USAGE = `usage: kerf catalog <${CATALOG_KINDS.join('|')}> [--process sheet_metal|tube_laser] [--base-url URL]\n`;

function fail(code: string, message: string, param?: string): number {
  stderr.write(JSON.stringify({ error: { code, message, ...(param ? { param } : {}) } }) + '\n');
  return 2;
}

export async function run(args: string[]): Promise<number> {
  let kind: string | undefined;
  let process: 'sheet_metal' | 'tube_laser' | undefined;
  let baseUrl: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--help' || a === '-h') { stderr.write(USAGE); return 0; }
    if (a === '--process' || a === '--base-url') {
      const v = args[++i];
      if (v === undefined) return fail('invalid_arguments', `${a} needs a value`, a.slice(2));
      if (a === '--process') {
        if (v !== 'sheet_metal' && v !== 'tube_laser') return fail('invalid_arguments', '--process must be sheet_metal or tube_laser', 'process');
        process = v;
      } else baseUrl = v;
    } else if (a.startsWith('-')) return fail('invalid_arguments', `unknown option '${a}'`);
    else if (kind === undefined) kind = a;
    else return fail('invalid_arguments', `unexpected argument '${a}'`);
  }
  if (kind === undefined) { stderr.write(USAGE); return 2; }
  if (!isCatalogKind(kind)) return fail('unknown_catalog', `unknown catalog '${kind}'; one of ${CATALOG_KINDS.join(', ')}`, 'kind');
  if (process && kind !== 'finishes') return fail('invalid_arguments', '--process applies to finishes only', 'process');
  const catalog = defaultCatalog();
  const data = catalogEntries(catalog, kind, { process, baseUrl });
  stdout.write(JSON.stringify({ object: 'list', data, has_more: false, next_cursor: null, catalog_version: catalog.version }, null, 2) + '\n');
  return 0;
}
