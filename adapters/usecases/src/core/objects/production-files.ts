// An order's production files for the shop (docs/api.md "Orders", docs/nesting.md "Files"): each
// file a signed download link, the link being the credential, like every other production file.
import { Type, type Static } from '@sinclair/typebox';
import { enumOf } from '@kerf/contract';

export const ORDER_FILE_KINDS = ['nest_dxf', 'nest_svg'] as const;

export const OrderProductionFile = Type.Object({
  object: Type.Literal('production_file', { description: 'The object\'s type name.' }),
  kind: enumOf(ORDER_FILE_KINDS, { description: '`nest_dxf`: one stock sheet of the nest the material was priced from, in millimetres, the sheet\'s boundary on layer `SHEET`, every placed cut contour on `CUT`, each piece\'s part id as text on `PART_IDS`; `nest_svg`: the same sheet as a picture.' }),
  material_id: Type.String({ description: 'The material (one alloy in one thickness) the sheet is cut from.' }),
  sheet: Type.Integer({ description: 'Which sheet of the material\'s nest, from 1.' }),
  sheet_count: Type.Integer({ description: 'Sheets in the material\'s nest.' }),
  sampled: Type.Boolean({ description: 'True when the pieces were too many to nest one by one and the nest is a proportional sample of them (docs/nesting.md "Material cost"): the shop nests the full quantity itself.' }),
  file_name: Type.String({ description: 'The name the file downloads as.' }),
  content_type: Type.String({ description: '`application/dxf` or `image/svg+xml`.' }),
  url: Type.String({ description: 'Signed download link of the file (the link is the credential; it expires).' }),
});
export type OrderProductionFile = Static<typeof OrderProductionFile>;

/** One material's nest as a DFM report's nest shows it: what a quote line's `nest` shows, with its sheet count. */
export const NestMaterial = Type.Object({
  material_id: Type.String({ description: 'The material (one alloy in one thickness) nested.' }),
  sheet_length_mm: Type.Number({ description: 'The stock sheet\'s long side, mm.' }),
  sheet_width_mm: Type.Number({ description: 'The stock sheet\'s short side, mm.' }),
  sheets: Type.Number({ description: 'The sheet area charged, in sheets (as a quote line\'s `nest.sheets`).' }),
  utilization: Type.Number({ description: 'The flats\' area over the sheet area charged, 0 to 1.' }),
  sheet_count: Type.Integer({ description: 'Stock sheets the nest uses.' }),
  sampled: Type.Boolean({ description: 'True when the pieces were too many to nest one by one and the nest is a proportional sample of them.' }),
});
export type NestMaterial = Static<typeof NestMaterial>;

export const DfmNest = Type.Object({
  object: Type.Literal('dfm_nest', { description: 'The object\'s type name.' }),
  dfm_id: Type.String({ description: 'The DFM report whose design and configuration are nested.' }),
  design_id: Type.String({ description: 'The report\'s design.' }),
  quantity: Type.Integer({ description: 'The design units nested.' }),
  nests: Type.Array(NestMaterial, { description: 'Per material of the priced sheet parts, its nest; empty when no sheet part is priced (no material chosen yet, a blocked part, or no sheet part).' }),
  production_files: Type.Array(OrderProductionFile, { description: 'Every stock sheet of the nests as `nest_dxf` and `nest_svg` production files with signed download links, as an order lists them.' }),
});
export type DfmNest = Static<typeof DfmNest>;
