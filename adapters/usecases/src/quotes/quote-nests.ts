// The nests a quote's sheet material is priced from, drawn (docs/nesting.md "Files"): per material
// its stock sheet, the area charged and the utilisation its lines show, and each sheet as an SVG
// picture of the placed flats. The quote keeps the nests it was priced from (its record's `_nests`),
// so the picture is the nest the price came from, never a nest made again.
import { nestSheetDxf, nestSheetSvg, type MaterialNest, type Outline } from '@kerf/engine';
import { requireScope, type Caller, type UseCaseContext, notFound, objects, QuoteInput, signedDownload, validateInput } from '../core/index.ts';

type OrderProductionFile = objects.OrderProductionFile;

/** Sheets drawn per material: a quote's nest is at most a few sheets (a larger quantity is a sample of them). */
export const MAX_NEST_PICTURES = 6;
/** Width of a sheet's picture, px. */
const PICTURE_WIDTH_PX = 720;

export interface QuoteNestView {
  material_id: string;
  sheet_length_mm: number;
  sheet_width_mm: number;
  /** the sheet area charged, in sheets */
  sheets: number;
  /** the flats' area over the sheet area charged, 0 to 1 */
  utilization: number;
  /** the nest is a proportional sample of the pieces (too many to nest one by one) */
  sampled: boolean;
  /** sheets in the nest drawn */
  sheet_count: number;
  /** SVG of each sheet, up to MAX_NEST_PICTURES */
  pictures: string[];
  /** signed download links of each drawn sheet's files for the shop (every sheet's, where asked): its DXF and its SVG */
  files: Array<{ dxf: string; svg: string }>;
}

/** The nests a stored quote was priced from, or none (no sheet part, or a quote priced before nests were kept). */
export function nestsOfRecord(record: { _nests?: object[] }): MaterialNest[] {
  return (record._nests ?? []) as MaterialNest[];
}

export function drawNest(n: MaterialNest, maxPictures = MAX_NEST_PICTURES): Omit<QuoteNestView, 'files'> {
  const outlines = new Map<string, Outline>(Object.entries(n.outlines));
  const count = Math.min(maxPictures, n.result.sheets.length);
  return {
    material_id: n.material_id, sheet_length_mm: n.line.sheet_length_mm, sheet_width_mm: n.line.sheet_width_mm,
    sheets: n.line.sheets, utilization: n.line.utilization, sampled: n.sampled, sheet_count: n.result.sheets.length,
    pictures: Array.from({ length: count }, (_, i) => nestSheetSvg(n.result, outlines, i, PICTURE_WIDTH_PX)),
  };
}

/**
 * Where a nest's sheet files are kept and what they download as: a quote's nest under the quote, a
 * DFM report's nest at a quantity under the report (docs/nesting.md "Files").
 */
export interface NestFilesHome {
  /** blob key prefix: `<prefix>/<material id>/sheet-<n>.<ext>` */
  key: string;
  /** file name stem: `<stem>-nest-<material id>-sheet-<n>.<ext>` */
  name: string;
}

/** A quote's nest files: stored under the quote (the quote page's links and the order's files are the same blobs). */
export const quoteNestHome = (quoteId: string): NestFilesHome => ({ key: `quotes/${quoteId}/nest`, name: quoteId });

/**
 * A sheet's file, stored once under its home (the same nest gives the same bytes) and named for
 * download: the signed link serves it like the other production files.
 */
async function sheetFile(ctx: UseCaseContext, home: NestFilesHome, materialId: string, sheet: number, ext: 'dxf' | 'svg', make: () => string): Promise<string> {
  const name = nestSheetFileName(home.name, materialId, sheet, ext);
  const key = `${home.key}/${materialId}/sheet-${sheet + 1}.${ext}`;
  const contentType = ext === 'dxf' ? 'application/dxf' : 'image/svg+xml';
  if (!(await ctx.store.blobs.get(key))) await ctx.store.blobs.put(key, Buffer.from(make(), 'utf8'), { contentType });
  return signedDownload(ctx, { k: key, t: contentType, n: name });
}

/** Sheet `sheet` (from 0) of a nest: signed links of its DXF and its SVG picture, each stored once under `home`. */
export async function nestSheetLinks(ctx: UseCaseContext, home: NestFilesHome, n: MaterialNest, sheet: number): Promise<{ dxf: string; svg: string }> {
  // only a file not stored yet is drawn
  const outlines = (): Map<string, Outline> => new Map(Object.entries(n.outlines));
  return {
    dxf: await sheetFile(ctx, home, n.material_id, sheet, 'dxf', () => nestSheetDxf(n.result, outlines(), sheet)),
    // the picture the quote page draws (the same width): the page and the file show the same drawing
    svg: await sheetFile(ctx, home, n.material_id, sheet, 'svg', () => nestSheetSvg(n.result, outlines(), sheet, PICTURE_WIDTH_PX)),
  };
}

/** The file name a sheet's file downloads as. */
export function nestSheetFileName(stem: string, materialId: string, sheet: number, ext: 'dxf' | 'svg'): string {
  return `${stem}-nest-${materialId}-sheet-${sheet + 1}.${ext}`;
}

/** One material's sheets as the shop's files (`production_file` objects), from their signed links: a DXF and an SVG per sheet. */
function sheetProductionFiles(home: NestFilesHome, n: { material_id: string; sampled: boolean }, links: ReadonlyArray<{ dxf: string; svg: string }>): OrderProductionFile[] {
  return links.flatMap((l, i) => (
    [['nest_dxf', 'dxf', 'application/dxf', l.dxf], ['nest_svg', 'svg', 'image/svg+xml', l.svg]] as const
  ).map(([kind, ext, contentType, url]): OrderProductionFile => ({
    object: 'production_file', kind, material_id: n.material_id, sheet: i + 1, sheet_count: links.length, sampled: n.sampled,
    file_name: nestSheetFileName(home.name, n.material_id, i, ext), content_type: contentType, url,
  })));
}

/** Every sheet of the nests as the shop's files (`production_file` objects): a DXF and an SVG per sheet, signed links. */
export async function nestProductionFiles(ctx: UseCaseContext, home: NestFilesHome, nests: readonly MaterialNest[]): Promise<OrderProductionFile[]> {
  const data: OrderProductionFile[] = [];
  for (const n of nests) {
    const links: Array<{ dxf: string; svg: string }> = [];
    for (let i = 0; i < n.result.sheets.length; i++) links.push(await nestSheetLinks(ctx, home, n, i));
    data.push(...sheetProductionFiles(home, n, links));
  }
  return data;
}

/** The production files of nests already drawn with every sheet's links (nestViews with `allFiles`): no link signed again. */
export function viewProductionFiles(home: NestFilesHome, views: readonly QuoteNestView[]): OrderProductionFile[] {
  return views.flatMap((v) => sheetProductionFiles(home, v, v.files));
}

/**
 * The nests drawn (up to MAX_NEST_PICTURES sheets each) with the signed links of their sheets' files:
 * of the drawn sheets, or of every sheet (`allFiles`: the order page lists them all).
 */
export async function nestViews(ctx: UseCaseContext, home: NestFilesHome, nests: readonly MaterialNest[], allFiles = false): Promise<QuoteNestView[]> {
  const out: QuoteNestView[] = [];
  for (const n of nests) {
    const drawn = drawNest(n);
    const files: QuoteNestView['files'] = [];
    const linked = allFiles ? drawn.sheet_count : drawn.pictures.length;
    for (let i = 0; i < linked; i++) files.push(await nestSheetLinks(ctx, home, n, i));
    out.push({ ...drawn, files });
  }
  return out;
}

/** The quote's nests, drawn, with each drawn sheet's DXF and SVG for the shop: for its page. */
export async function getQuoteNests(ctx: UseCaseContext, caller: Caller, input: QuoteInput): Promise<QuoteNestView[]> {
  requireScope(caller, 'quotes');
  const { quote_id } = validateInput(QuoteInput, input, { location: 'params' });
  const rec = await ctx.store.quotes.get(caller.accountId, quote_id);
  if (!rec) throw notFound('quote', quote_id, 'quote_id');
  return nestViews(ctx, quoteNestHome(quote_id), nestsOfRecord(rec.data));
}
