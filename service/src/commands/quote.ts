// `kerf quote FILE --configuration JSON|@file --quantity N [--quantity-options a,b,c] [--ship-to JSON]
// [--base-url URL] [--now ISO] [--images]`: analyzes the STEP file and prints the quote with each
// item's full DFM report. Bad input: a JSON error on stderr and a non-zero exit.
import { stdout } from 'node:process';
import { defaultCatalog } from '@kerf/engine/catalog/index.ts';
import { parseQuoteRequest, quote } from '@kerf/engine/pricing/index.ts';
import { parseConfiguration, withFlatsUsed } from '@kerf/engine/dfm/index.ts';
import { CliError, analyzeFile, parseCommon, reportError, stableId, withoutImages } from './dfm.ts';

const USAGE = 'usage: kerf quote FILE --configuration JSON|@file.json --quantity N [--quantity-options a,b,c] [--ship-to JSON] [--base-url URL] [--now ISO] [--images]\n';

function integer(text: string, param: string): number {
  if (!/^\d+$/.test(text.trim())) throw new CliError('invalid_configuration', `${param} must be a positive integer, got '${text}'`, param);
  return Number(text);
}

export async function run(args: string[]): Promise<number> {
  try {
    const a = await parseCommon(args, ['--quantity', '--quantity-options', '--ship-to'], USAGE);
    if (a === 'help') return 0;
    const qArg = a.rest.get('--quantity');
    if (!qArg) throw new CliError('invalid_arguments', '--quantity is required', 'quantity');
    if (qArg.length > 1) throw new CliError('invalid_arguments', '--quantity given more than once', 'quantity');
    const quantity = integer(qArg[0], 'quantity');
    const qo = a.rest.get('--quantity-options');
    const quantity_options = qo ? qo.join(',').split(',').filter((s) => s.trim() !== '').map((s, i) => integer(s, `quantity_options[${i}]`)) : undefined;
    let ship_to: unknown = undefined;
    const st = a.rest.get('--ship-to');
    if (st) {
      try { ship_to = JSON.parse(st[st.length - 1]); } catch (e) { throw new CliError('invalid_configuration', `--ship-to is not valid JSON: ${(e as Error).message}`, 'ship_to'); }
    }
    // validate the request before the (slow) analysis
    parseQuoteRequest({ items: [{ design_id: 'des_pending', quantity, configuration: a.configuration, ...(quantity_options ? { quantity_options } : {}) }], ...(ship_to !== undefined ? { ship_to } : {}) });
    parseConfiguration(a.configuration);
    const { design, digest } = await analyzeFile(a.file, a.configuration);
    if (design.status !== 'ready') throw new CliError(design.error?.code ?? 'analysis_failed', design.error?.message ?? 'analysis failed', 'file', 1);
    const request = { items: [{ design_id: design.id, quantity, configuration: a.configuration, ...(quantity_options ? { quantity_options } : {}) }], ...(ship_to !== undefined ? { ship_to } : {}) };
    const now = a.now ?? new Date().toISOString();
    const id = stableId('quo', digest, JSON.stringify(request), now);
    const priced = quote(request, new Map([[design.id, design]]), defaultCatalog(), { id, now, baseUrl: a.baseUrl, dfmId: (i) => stableId('dfm', id, String(i)) });
    // each item's DFM report states the flat it was priced with, as the service's quotes do
    const q = { ...priced, items: priced.items.map((item) => ({ ...item, dfm: withFlatsUsed(item.dfm, design) })) };
    stdout.write(JSON.stringify(a.images ? q : withoutImages(q), null, 2) + '\n');
    return 0;
  } catch (err) {
    return reportError(err);
  }
}
