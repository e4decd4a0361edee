// The design, the DFM report and the review link as the API serves them: the engine's shapes
// (@kerf/engine), with the URLs the service fills in and what it keeps to itself left out.
import { Type, type Static, type TOptional, type TProperties, type TSchema } from '@sinclair/typebox';
import { Design, DfmIssue, DfmPartReport, DfmReport, DfmRequirement, Part } from '@kerf/engine';
import { createdAt, DesignId, enumOf, expiresAt, id, objectName, orNull, time } from './fields.ts';

/** A URL field the engine leaves null and the service always fills: the engine's field, never null. */
const served = (schema: TSchema) => Type.Unsafe<string>({ ...schema, type: 'string' });

/**
 * The properties with `keys` optional: fields the engine sets now that objects kept before they
 * were added lack, so the API has never promised them on every object it serves.
 */
function notOnOlder<T extends TProperties, K extends keyof T & string>(properties: T, keys: K[]): { [P in keyof T]: P extends K ? TOptional<T[P]> : T[P] } {
  const out: TProperties = { ...properties };
  for (const k of keys) out[k] = Type.Optional(properties[k]);
  return out as { [P in keyof T]: P extends K ? TOptional<T[P]> : T[P] };
}

const PartView = Type.Object(notOnOlder(Part.properties, ['unsupported_message', 'warnings']));

/** The design: the engine's, with its status URL. */
export const DesignView = Type.Object({
  ...Design.properties,
  status_url: served(Design.properties.status_url),
  parts: Type.Array(PartView, { description: Design.properties.parts.description }),
});
export type DesignView = Static<typeof DesignView>;

/** A requirement names its catalog by URL (`allowed_values_url`), not by the engine's catalog kind. */
export const Requirement = Type.Omit(DfmRequirement, ['catalog']);
export type Requirement = Static<typeof Requirement>;

const IssueView = Type.Object(notOnOlder(DfmIssue.properties, ['part_id', 'hole_id', 'bend_id', 'operation', 'details']));
const Issues = (description: string | undefined) => Type.Array(IssueView, { description });

const { image_svg: _svg, ...partFields } = DfmPartReport.properties;
/** A part of a served report: its image by URL (the SVG the engine drew is served there). */
export const DfmPartView = Type.Object({
  ...notOnOlder(partFields, ['capabilities', 'process', 'material_id', 'tube_profile_id', 'finish_id', 'powder_coat_color_id', 'k_factor']),
  issues: Issues(DfmPartReport.properties.issues.description),
  image_url: served(DfmPartReport.properties.image_url),
});

/** The DFM report: the engine's, with its review link and image URLs filled in. */
export const DfmReportView = Type.Object({
  ...notOnOlder(DfmReport.properties, ['catalog_version']),
  review_url: served(DfmReport.properties.review_url),
  review_link_id: served(DfmReport.properties.review_link_id),
  parts: Type.Array(DfmPartView, { description: DfmReport.properties.parts.description }),
  requirements: Type.Array(Requirement, { description: DfmReport.properties.requirements.description }),
  assembly_issues: Issues(DfmReport.properties.assembly_issues.description),
});
export type DfmReportView = Static<typeof DfmReportView>;

export const ReviewLink = Type.Object({
  id: id('review link (`rvl_...`): the credential of its page'),
  object: objectName('review_link'),
  status: enumOf(['open', 'saved', 'expired'] as const, { description: '`open`, `saved` (a person saved the configuration) or `expired`.' }),
  design_id: DesignId,
  dfm_id: orNull<string>({ type: 'string', description: 'The DFM report the link was made from, or null.' }),
  review_url: Type.String({ description: 'The page where a person reviews and edits the configuration.' }),
  configuration: Type.Unsafe<Record<string, unknown>>({ type: 'object', description: 'The configuration object, as last saved: materials, finishes, hardware per hole, welds and accepted risks (docs/api.md).' }),
  configuration_updated_at: time('When the configuration was last saved (ISO 8601).'),
  created_at: createdAt,
  expires_at: expiresAt,
});
export type ReviewLink = Static<typeof ReviewLink>;
