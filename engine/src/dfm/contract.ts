// The DFM report's shapes (docs/api.md "DFM reports"), written once: the TypeScript types (Static),
// the OpenAPI document's shapes and their field descriptions. The engine makes no URLs: it leaves
// the report's and each part's URL null, and the service fills them.
import { Type, type Static } from '@sinclair/typebox';
import { FlatPattern, SuggestedProcess, Warning } from '../contract.ts';
import { described, enumOf, nullable, orNull } from '../contract/schema.ts';
import type { CatalogKind } from '../catalog/types.ts';
import type { Configuration } from './configuration.ts';
import { BendPlan } from '../brake/plan.ts';

const Code = Type.String({ description: 'Stable machine-readable code; the error reference at /docs/errors explains each.' });
const Message = Type.String({ description: 'Human explanation.' });
const Reason = (of: string) => orNull<string>({ type: 'string', description: `Why ${of} is not available, or null when it is.` });

export const DFM_STATUSES = ['ready', 'requires_input', 'blocked'] as const;
export type DfmStatus = (typeof DFM_STATUSES)[number];

export const ISSUE_SOURCES = ['geometry', 'configuration', 'catalog', 'assembly'] as const;
export type IssueSource = (typeof ISSUE_SOURCES)[number];

export const SEVERITIES = ['blocking', 'warning'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const DfmIssue = Type.Object({
  code: Code,
  message: Message,
  severity: enumOf(SEVERITIES, { description: '`blocking` (must be fixed or accepted) or `warning`.' }),
  accepted: Type.Boolean({ description: 'Whether the customer accepted this finding through `accepted_risks`, so it no longer blocks.' }),
  source: enumOf(ISSUE_SOURCES, { description: 'What raised it: `geometry` (the part\'s shape), `configuration` (a selection where it was put), `catalog` (the selected item cannot be used) or `assembly` (welds).' }),
  part_id: orNull<string>({ type: 'string', description: 'The unique part (the design\'s `parts[].id`), or null for an assembly finding.' }),
  hole_id: orNull<number>({ type: 'integer', description: 'The hole this is about (the part\'s `holes[].id`), or null.' }),
  bend_id: orNull<number>({ type: 'integer', description: 'The bend this is about (the part\'s `bends[].id`), or null.' }),
  operation: orNull<string>({ type: 'string', description: 'The operation it concerns (`tap`, `stud`, `nut`, `standoff`, `countersink`, `weld`, ...), or null.' }),
  details: Type.Unsafe<Record<string, unknown>>({ type: 'object', description: 'Facts behind the message: measured values, limits, the ids concerned.' }),
});
export type DfmIssue = Static<typeof DfmIssue>;

export const DfmRequirement = Type.Object({
  code: Code,
  message: Message,
  part_id: orNull<string>({ type: 'string', description: 'The unique part that needs the selection (the design\'s `parts[].id`), or null.' }),
  part_ids: Type.Array(Type.String(), { description: 'The unique parts that need the selection.' }),
  field: Type.String({ description: 'The configuration field to set.' }),
  allowed_values_url: orNull<string>({ type: 'string', description: 'The catalog list whose ids this field takes.' }),
  // the engine names the catalog; whoever serves the report turns it into allowed_values_url
  catalog: Type.Unsafe<CatalogKind>({ type: 'string', description: 'The catalog whose ids `field` takes.' }),
});
export type DfmRequirement = Static<typeof DfmRequirement>;

export const CapabilityOption = Type.Object({
  id: Type.String({ description: 'The catalog entry.' }),
  name: Type.String({ description: 'The catalog entry\'s name.' }),
  available: Type.Boolean({ description: 'Whether it can be used on this part.' }),
  unavailable_reason: Reason('it'),
});
export type CapabilityOption = Static<typeof CapabilityOption>;

export const CapabilityList = Type.Object({
  available: Type.Boolean({ description: 'Whether any option can be used on this part.' }),
  unavailable_reason: Reason('none'),
  options: Type.Array(CapabilityOption, { description: 'Every catalog entry of the kind, with whether it fits this part and why not.' }),
});
export type CapabilityList = Static<typeof CapabilityList>;

export const HoleCapability = Type.Object({
  available: Type.Boolean({ description: 'Whether any option fits this hole.' }),
  unavailable_reason: Reason('any'),
  option_ids: Type.Array(Type.String(), { description: 'The catalog entries that fit this hole.' }),
  sides: Type.Array(enumOf(['top', 'bottom'] as const), { description: 'Installation sides allowed (`top`: the hole\'s normal side); empty when nothing fits.' }),
});
export type HoleCapability = Static<typeof HoleCapability>;

const hole = (kind: string) => described(HoleCapability, `${kind} that fit this hole.`);
export const HoleCapabilities = Type.Object({
  hole_id: Type.Integer({ description: 'The hole (the part\'s `holes[].id`).' }),
  taps: hole('Taps'), studs: hole('Studs'), nuts: hole('Nuts'), standoffs: hole('Standoffs'), countersinks: hole('Countersinks'),
});
export type HoleCapabilities = Static<typeof HoleCapabilities>;

const list = (what: string) => described(CapabilityList, `${what} this part can take.`);
export const Capabilities = Type.Object({
  taps: list('Taps'), studs: list('Studs'), nuts: list('Nuts'), standoffs: list('Standoffs'), countersinks: list('Standard countersinks'),
  finish_id: list('Finishes'), powder_coat_color_id: list('Powder-coat colours'),
  holes: Type.Array(HoleCapabilities, { description: 'Per hole: the hardware, taps and countersinks that fit it.' }),
});
export type Capabilities = Static<typeof Capabilities>;

const Selected = (what: string) => orNull<string>({ type: 'string', description: `The ${what} the part was checked with, or null.` });


export const DfmPartReport = Type.Object({
  part_id: Type.String({ description: 'The unique part (the design\'s `parts[].id`).' }),
  status: enumOf(DFM_STATUSES, { description: 'The part\'s verdict: `ready`, `requires_input` (a selection is missing) or `blocked`.' }),
  issues: Type.Array(DfmIssue, { description: 'DFM findings: code, severity (`blocking` or `warning`), message, details, the hole or bend concerned.' }),
  capabilities: described(Capabilities, 'What this part and each of its holes can take (finishes, colours, taps, hardware, countersinks), and why not.'),
  image_url: orNull<string>({ type: 'string', description: 'The part\'s DFM image: the findings drawn on its flat (307 to the file).' }),
  /**
   * The DFM image (findings on the part's real flat, else its iso view, with a legend): present
   * when dfm() was given the analyzed model, whose geometry it is drawn from; a Design alone
   * carries no outline to draw, and a drawing of its numbers would misrepresent the part.
   */
  image_svg: Type.Optional(Type.String({ description: 'The DFM image as SVG text (local checks only; the API serves it at `image_url`).' })),
  // plain messages: existing clients of the live API parse this as list[str] (docs/api.md "Conventions")
  production_warnings: Type.Array(Type.String(), { description: 'Production warnings, as plain messages.' }),
  production_warning_details: Type.Array(Warning, { description: 'The same production warnings in the same order, with their codes.' }),
  process: described(SuggestedProcess, 'How the part is made: `sheet_metal` or `tube_laser`.'),
  material_id: Selected('sheet material'),
  tube_profile_id: Selected('tube profile'),
  finish_id: Selected('finish'),
  powder_coat_color_id: Selected('powder-coat colour'),
  k_factor: orNull<number>({ type: 'number', description: 'K-factor of the configured sheet material at this part\'s r/t (null without one or without bends).' }),
  // absent from reports made before parts could be left out
  left_out: Type.Optional(nullable(Type.Object({
    reason: enumOf(['bought_in', 'customer_supplied'] as const, { description: '`bought_in`: the design took it for bought-in hardware (its `bought_in`); `customer_supplied`: its configuration entry sets `left_out: true`.' }),
    message: Message,
  }), 'Set when the part is left out of the job (not made, not priced, never blocking): why; null when it is made.')),
  // absent from reports made before the press-brake simulation and from catalogs without tooling
  bend_plan: Type.Optional(nullable(BendPlan, 'The press-brake plan of a bent sheet part (docs/press-brake.md): per bend the die, radius, force and flange support, and a bend sequence checked for collisions; null when the part is not bent sheet or the catalog has no press-brake tooling.')),
  // set by withFlatsUsed
  flat_pattern: Type.Optional(described(FlatPattern, 'The flat the part was checked and priced with, its K-factor included (null when not sheet).')),
});
export type DfmPartReport = Static<typeof DfmPartReport>;

export const ProductionFilesState = Type.Object({
  status: enumOf(['pending', 'ready', 'failed', 'skipped'] as const, { description: 'Where the production files are: `pending`, `ready`, `failed` or `skipped` (see `reason`).' }),
  reason: orNull<string>({ type: 'string', description: 'Why they were skipped (`dfm_blocked`, `dfm_requires_input`, `not_requested`), or null.' }),
  error: nullable(Type.Object({ code: Code, message: Message }), 'Why they could not be made, or null.'),
  review_warning: nullable(Type.Object({
    design_id: Type.String({ description: 'The design (an analysed upload).' }),
    code: Code,
    message: Message,
  }), 'What a person should check before production, or null.'),
  corrections_applied: Type.Boolean({ description: 'Whether the production files differ from the model by a correction made on its own (e.g. a hole cut at its tap drill size, a sharp bend made with a radius); the parts\' `production_warning_details` say which.' }),
});
export type ProductionFilesState = Static<typeof ProductionFilesState>;

export const DfmReport = Type.Object({
  id: Type.String({ description: 'Unique id of the report (`dfm_...`).' }),
  object: Type.Literal('dfm_report', { description: 'The object\'s type name.' }),
  design_id: Type.String({ description: 'The design (an analysed upload).' }),
  status: enumOf(DFM_STATUSES, { description: 'The verdict: `ready`, `requires_input` (selections missing, see `requirements`) or `blocked` (see the issues).' }),
  configuration: Type.Unsafe<Configuration>({ type: 'object', description: 'The configuration checked, normalised: materials, finishes, hardware per hole, welds and accepted risks (docs/api.md).' }),
  review_url: orNull<string>({ type: 'string', description: 'A page where a person reviews and edits the configuration.' }),
  review_link_id: orNull<string>({ type: 'string', description: 'The review link behind `review_url`.' }),
  parts: Type.Array(DfmPartReport, { description: 'The report of each unique part.' }),
  requirements: Type.Array(DfmRequirement, { description: 'Selections still needed before it can be priced.' }),
  assembly_issues: Type.Array(DfmIssue, { description: 'Findings about the assembly operations rather than one part.' }),
  production_files: described(ProductionFilesState, 'Production files (DXF, STEP, GLB): their state.'),
  catalog_version: Type.String({ description: 'The catalog version the report was made with: the same inputs and version give the same report.' }),
  created_at: Type.String({ format: 'date-time', description: 'When it was created (ISO 8601).' }),
});
export type DfmReport = Static<typeof DfmReport>;
