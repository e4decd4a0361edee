// DFM and quotes of a STEP file at hand, kept nowhere: what `kerf dfm` and `kerf quote` run. They
// need the engine but no store, and check their input exactly as the stored use cases do, so the
// same bad input gives the same error from the CLI as from the API.
import { EngineError, withFlatsUsed, type Design } from '@kerf/engine';
import {
  requireScope, type Caller, type EngineContext, type AnalysisOutput, type Configuration, type DfmOutcome, type PresentedDfmReport,
  invalid, presentDfmReport, FileDfmRequest, FileQuoteRequest, validateInput,
} from '../core/index.ts';
import { toEngineDesign } from '../designs/index.ts';
import { computeDfm } from '../dfm/index.ts';
import { presentQuote, type Quote } from './quote-object.ts';
import { quoteOf } from './quotes.ts';

interface FileAtHand { file_name: string; bytes: Uint8Array }
/** images: each part's inline SVG is the DFM image the service serves (the findings on the real flat) */
/** onDesign: the file's design once analysed (the CLI names parts, thicknesses and bends from it) */
export interface CheckFileInput extends FileAtHand { configuration?: unknown; images?: boolean; onDesign?: (design: Design) => void }
export interface QuoteFileInput extends FileAtHand { request: unknown; images?: boolean; onDesign?: (design: Design) => void }

/** The DFM report of a file under a configuration. */
export async function checkFile(ctx: EngineContext, caller: Caller, input: CheckFileInput): Promise<PresentedDfmReport> {
  requireScope(caller, 'dfm');
  const { configuration } = validateInput(FileDfmRequest, input.configuration === undefined ? {} : { configuration: input.configuration });
  const design = await analyzeFile(ctx, input, configuration);
  input.onDesign?.(design);
  const report = await computeDfm(ctx, design, configuration ?? {}, { id: ctx.newId('dfm'), generateProductionFiles: false });
  return presentDfmReport(ctx.links, withFlatsUsed(input.images ? await drawParts(ctx, design, input, report) : report, design));
}

/** The quote of a file: one item, the file's design, with its full DFM report. */
export async function quoteFile(ctx: EngineContext, caller: Caller, input: QuoteFileInput): Promise<Quote> {
  requireScope(caller, 'quotes');
  const { ship_to, ...item } = validateInput(FileQuoteRequest, input.request);
  const design = await analyzeFile(ctx, input, item.configuration);
  input.onDesign?.(design);
  const priced = await quoteOf(ctx, ctx.newId('quo'), { items: [{ ...item, design_id: design.id }], ...(ship_to ? { ship_to } : {}) }, { [design.id]: design });
  // each item's DFM report states the flat it was priced with, as the service's quotes do
  const items = [];
  for (const it of priced.items) items.push({ ...it, dfm: withFlatsUsed(input.images ? await drawParts(ctx, design, input, it.dfm) : it.dfm, design) });
  const quote = presentQuote(ctx.links, { ...priced, items });
  // kept nowhere, so there is nothing to poll
  return { ...quote, status_url: null };
}

/** The report with each part's inline SVG: the served DFM image (engine dfmImages, all parts from one
 * analysis of the file), drawn from the file's geometry (a report computed from the Design alone has
 * no image_svg: the Design carries no outline). */
async function drawParts(ctx: EngineContext, design: Design, file: FileAtHand, report: DfmOutcome): Promise<DfmOutcome> {
  const images = await ctx.engine.dfmImages({
    design, source: file.bytes, view: 'flat', format: 'svg', width: 800, configuration: report.configuration,
    parts: report.parts.map((p) => ({ part_id: p.part_id, issues: p.issues, k_factor: p.k_factor })),
  });
  const parts = report.parts.map((p, i) => {
    const img = images[i];
    return img ? { ...p, image_svg: new TextDecoder().decode(img.bytes) } : p;
  });
  return { ...report, parts };
}

/**
 * The file's design with the flats its configuration calls for: each part whose configured material
 * gives another K-factor than the default is flattened again with it (a flat uses its material's
 * K-factor: docs/geometry.md "Bend allowance and K-factor"), the rule the stored designs follow too.
 */
async function analyzeFile(ctx: EngineContext, file: FileAtHand, configuration: Configuration | undefined): Promise<Design> {
  const first = await analyze(ctx, file, {});
  // the id `kerf analyze` gives the same file, whatever the configuration
  const id = first.engine_design_id ?? ctx.newId('des');
  const createdAt = ctx.now().toISOString();
  const view = ({ engine_design_id: _id, ...out }: AnalysisOutput): Design =>
    toEngineDesign(ctx, { id, status: 'ready', name: file.file_name, createdAt, result: { ...out, fileKeys: {} }, error: null });
  const design = view(first);
  const kFactorByPart = await ctx.engine.materialKFactors(design, configuration ?? {});
  if (Object.keys(kFactorByPart).length === 0) return design;
  return view(await analyze(ctx, file, { kFactorByPart }));
}

async function analyze(ctx: EngineContext, file: FileAtHand, options: { kFactorByPart?: Record<string, number> }): Promise<AnalysisOutput> {
  try {
    return await ctx.engine.analyze(file.bytes, { fileName: file.file_name, ...options });
  } catch (err) {
    // the file's own verdict, as an upload that fails its check gets it
    if (err instanceof EngineError && err.code !== 'queue_full') throw invalid(err.code, err.message, 'file');
    throw err;
  }
}
