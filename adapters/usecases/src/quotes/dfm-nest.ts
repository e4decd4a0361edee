// A DFM report's nest at a quantity (docs/nesting.md "A DFM report's nest"): the nest a quote of the
// report's design and configuration at that quantity is priced from, per material, with every
// sheet's DXF and SVG for the shop. The report's own request stays as the contract has it; the nest
// is a separate read.
import { createHash } from 'node:crypto';
import { requireScope, type Caller, type UseCaseContext, DfmNestInput, objects, validateInput, type QuoteItemRequest } from '../core/index.ts';
import { getDfmDoc } from '../dfm/index.ts';
import { nestProductionFiles, type NestFilesHome } from './quote-nests.ts';
import { nestsOfDesign } from './quotes.ts';

/** Hex digits of the nest's hash in its files' keys: a nest made again (another catalog) gets new files. */
const NEST_KEY_HEX = 16;

/** GET /v1/dfm/{dfm_id}/nest?quantity=N */
export async function getDfmNest(ctx: UseCaseContext, caller: Caller, input: DfmNestInput): Promise<objects.DfmNest> {
  requireScope(caller, 'dfm');
  const q = validateInput(DfmNestInput, input, { location: 'querystring' });
  const quantity = q.quantity ?? 1;
  const doc = await getDfmDoc(ctx, caller.accountId, q.dfm_id);
  const nests = await nestsOfDesign(ctx, caller.accountId, doc.design_id, (doc.configuration ?? undefined) as QuoteItemRequest['configuration'], quantity, 'dfm_id');
  // the files are kept under the report by the nest they draw: the same nest, the same stored files
  const hash = createHash('sha256').update(JSON.stringify(nests)).digest('hex').slice(0, NEST_KEY_HEX);
  const home: NestFilesHome = { key: `dfm/${doc.id}/nest/${hash}`, name: `${doc.id}-q${quantity}` };
  return {
    object: 'dfm_nest', dfm_id: doc.id, design_id: doc.design_id, quantity,
    nests: nests.map((n) => ({
      material_id: n.material_id, sheet_length_mm: n.line.sheet_length_mm, sheet_width_mm: n.line.sheet_width_mm,
      sheets: n.line.sheets, utilization: n.line.utilization, sheet_count: n.result.sheets.length, sampled: n.sampled,
    })),
    production_files: await nestProductionFiles(ctx, home, nests),
  };
}
