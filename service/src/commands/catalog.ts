// `kerf catalog KIND [--process sheet_metal|tube_laser] [--base-url URL]`: one whole catalog as
// {object:"list", data, has_more, next_cursor, catalog_version} on stdout, read through the same use
// case as the API's catalog lists (so hardware carries its model_url under --base-url).
import { stderr, stdout } from 'node:process';
import { newId } from '@kerf/common';
import { CATALOG_KINDS, defaultCatalog, isCatalogKind } from '@kerf/engine';
import { restLinks } from '@kerf/rest/links';
import { listCatalog, localCaller, type CatalogName, type CatalogEntry } from '@kerf/usecases';
import { LocalEngine } from '../engine-local.ts';
import { printHelp } from './help.ts';

const USAGE = `usage: kerf catalog <${CATALOG_KINDS.join('|')}> [--process sheet_metal|tube_laser] [--base-url URL]\n`;
const PAGE = 500;

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
    if (a === '--help' || a === '-h') return printHelp('catalog');
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
  const ctx = { engine: new LocalEngine(), links: restLinks(baseUrl ?? ''), log: { info() {}, warn() {}, error() {} }, now: () => new Date(), newId };
  const catalog = kind.replace(/-/g, '_') as CatalogName;
  const data: CatalogEntry[] = [];
  for (let cursor: string | undefined; ;) {
    const page = await listCatalog(ctx, localCaller(), { catalog, limit: PAGE, ...(cursor ? { cursor } : {}), ...(process ? { process } : {}) });
    data.push(...page.data);
    if (!page.has_more || !page.next_cursor) break;
    cursor = page.next_cursor;
  }
  stdout.write(JSON.stringify({ object: 'list', data, has_more: false, next_cursor: null, catalog_version: defaultCatalog().version }, null, 2) + '\n');
  return 0;
}
