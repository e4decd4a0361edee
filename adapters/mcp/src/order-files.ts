// get_order_production_files: the nest for the shop of a paid order (docs/nesting.md "An order's
// files"): every stock sheet's DXF and SVG as signed download links (the REST list's objects), each
// drawn sheet's picture as SVG content under its link, as get_dfm hands out its bend-step pictures.
import { Type } from '@sinclair/typebox';
import { getOrderNests } from '@kerf/usecases';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { toolResult } from './results.ts';
import type { ToolDef } from './tool-def.ts';

const percent = (x: number): string => `${Math.round(x * 1000) / 10} %`;

export const orderProductionFilesTool: ToolDef = {
  name: 'get_order_production_files',
  title: 'Get an order\'s production files',
  description: 'The nest for the shop of a paid order: per material, every stock sheet its sheet parts are nested on, as a DXF for cutting (layers SHEET, CUT, PART_IDS; millimetres) and an SVG picture, each a signed download link (the link is the credential; it expires: call again for fresh ones), with the material\'s utilisation; the pictures of up to 6 sheets per material come as SVG content.',
  input: Type.Object({ order_id: Type.String({ minLength: 1, maxLength: 100, description: 'An order id (ord_...), from the checkout a person paid.' }) }, { additionalProperties: false }),
  scopes: ['orders'],
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(env, args): Promise<CallToolResult> {
    const input = { order_id: String(args.order_id) };
    const { nests, files: list } = await getOrderNests(env.ctx, env.caller, input);
    const lines = nests.length
      ? nests.flatMap((n) => [
        `${n.material_id}: ${n.sheet_count} sheet(s) of ${n.sheet_length_mm} x ${n.sheet_width_mm} mm, utilisation ${percent(n.utilization)}, ${n.sheets} sheets' area charged${n.sampled ? ' (a proportional sample of the pieces: the shop nests the full quantity itself)' : ''}`,
        ...n.files.map((f, i) => `  sheet ${i + 1}: DXF ${f.dxf} ; SVG ${f.svg}`),
      ])
      : ['No nest: the order has no sheet parts, or its quote was priced before nests were kept.'];
    const pictures: CallToolResult['content'] = nests.flatMap((n) => n.pictures.flatMap((svg, i) => [
      { type: 'text' as const, text: `Sheet ${i + 1} of ${n.sheet_count} of ${n.material_id}, with the flats placed` },
      { type: 'resource' as const, resource: { uri: n.files[i].svg, mimeType: 'image/svg+xml', text: svg } },
    ]));
    return toolResult([`Production files of order ${input.order_id} (the nest its sheet material was priced from):`, ...lines].join('\n'), list as unknown as Record<string, unknown>, pictures);
  },
};
