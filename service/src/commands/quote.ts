// `kerf quote FILE --configuration JSON|@file --quantity N [--quantity-options a,b,c] [--ship-to JSON]
// [--base-url URL] [--now ISO] [--images]`: the quote of the STEP file with each item's full DFM
// report, from the same use cases as POST /v1/quotes. Bad input: a JSON error on stderr and a
// non-zero exit.
import { stdout } from 'node:process';
import type { Design } from '@kerf/engine';
import { localCaller, quoteFile, stockChoicesOf } from '@kerf/usecases';
import { CliError, humanOutput, localContext, parseCommon, readInput, reportError, forOutput } from './local-check.ts';
import { quoteSummary, refuseUnknownIds, useColour } from './summary.ts';

const USAGE = 'usage: kerf quote FILE --configuration JSON|@file.json --quantity N [--quantity-options a,b,c] [--ship-to JSON] [--base-url URL] [--now ISO] [--images] [--json]\n';

/** A whole number as a number, anything else as typed: the use case's schema judges both, as for the API. */
function integer(text: string): number | string {
  return /^-?\d+$/.test(text.trim()) ? Number(text) : text;
}

export async function run(args: string[]): Promise<number> {
  try {
    const a = await parseCommon(args, ['--quantity', '--quantity-options', '--ship-to'], USAGE, 'quote');
    if (a === 'help') return 0;
    const qArg = a.rest.get('--quantity');
    if (!qArg) throw new CliError('invalid_arguments', '--quantity is required', 'quantity');
    if (qArg.length > 1) throw new CliError('invalid_arguments', '--quantity given more than once', 'quantity');
    const quantity = integer(qArg[0]);
    const qo = a.rest.get('--quantity-options');
    const quantity_options = qo ? qo.join(',').split(',').filter((s) => s.trim() !== '').map((s) => integer(s)) : undefined;
    let ship_to: unknown = undefined;
    const st = a.rest.get('--ship-to');
    if (st) {
      try { ship_to = JSON.parse(st[st.length - 1]); } catch (e) { throw new CliError('invalid_configuration', `--ship-to is not valid JSON: ${(e as Error).message}`, 'ship_to'); }
    }
    const request = { quantity, ...(a.configuration !== undefined ? { configuration: a.configuration } : {}), ...(quantity_options ? { quantity_options } : {}), ...(ship_to !== undefined ? { ship_to } : {}) };
    const file = await readInput(a.file);
    const ctx = localContext(a, file.bytes, request);
    let design: Design | null = null;
    const quote = await quoteFile(ctx, localCaller(), { ...file, request, images: a.images, onDesign: (d) => { design = d; } });
    refuseUnknownIds(quote.items.map((it) => it.dfm), a.configuration);
    if (humanOutput(a)) {
      const parts = (design as Design | null)?.parts ?? [];
      stdout.write(quoteSummary(quote, design, await stockChoicesOf(ctx, parts), useColour(stdout.isTTY)));
    } else {
      stdout.write(JSON.stringify(forOutput(quote, a), null, 2) + '\n');
    }
    return 0;
  } catch (err) {
    return reportError(err);
  }
}
