// dfm(design, configuration, catalog, context): the API's DFM report (docs/api.md "DFM reports").
// Pure: the report id and the clock come in, so the same inputs give the same report. It names
// catalogs and parts, not URLs: whoever serves the report turns those references into links.
import type { AnalyzedModel } from '../analyze.ts';
import type { Design, Warning } from '../contract.ts';
import { EngineError } from '../contract.ts';
import { indexCatalog } from '../catalog/index.ts';
import type { Catalog, MaterialType } from '../catalog/types.ts';
import { InvalidConfigurationError, effectiveSelections, parseConfiguration, type Configuration } from './configuration.ts';
import { computeCapabilities } from './capabilities.ts';
import { checkPart, type PartCheckResult } from './part-checks.ts';
import type { DfmIssue, DfmPartReport, DfmReport, DfmRequirement, DfmStatus, IssueSource, ProductionFilesState } from './contract.ts';
import { partKFactor } from './k-factor.ts';
import { dfmImageSvg } from './svg.ts';
import { acceptableRiskOf, isAcceptableRisk } from './rules.ts';
import { isAutomaticCorrection } from './corrections.ts';
import { isLeftOut, leftOutReason, withLeftOutDefaults, notInstalledText, type NotInstalled } from './left-out.ts';

export type { DfmIssue, DfmPartReport, DfmReport, DfmRequirement, DfmStatus, IssueSource, ProductionFilesState };

export interface DfmContext {
  /** report id, e.g. dfm_... */
  id: string;
  /** ISO 8601 timestamp */
  now: string;
  /** production files are prepared by default (contract); the service reports their real state */
  generateProductionFiles?: boolean;
}

/**
 * Whether an issue keeps its part (or, for assembly issues, the design) from being made: a blocking
 * issue always does; a warning does only when it is one of the acceptable risks and was not accepted.
 * Any other warning is reported and never blocks.
 */
function blocks(i: DfmIssue): boolean {
  return i.severity === 'blocking' || (isAcceptableRisk(i.code) && !i.accepted);
}

function worst(statuses: DfmStatus[]): DfmStatus {
  if (statuses.includes('blocked')) return 'blocked';
  if (statuses.includes('requires_input')) return 'requires_input';
  return 'ready';
}

/** Weldability groups: a weld joins members of one group (steels take stainless with 309 filler). */
const WELD_GROUP: Record<MaterialType, 'steel' | 'aluminum' | null> = {
  mild_steel: 'steel', galvanized_steel: 'steel', stainless_304: 'steel', stainless_316: 'steel', chromoly_4130: 'steel',
  steel_a500: 'steel', steel_dom: 'steel', steel_s235: 'steel', aluminum_5052: 'aluminum', aluminum_6061: 'aluminum', aluminum_6063: 'aluminum',
  copper: null, brass: null,
};

function assemblyChecks(design: Design, config: Configuration, results: Map<string, PartCheckResult>): DfmIssue[] {
  const out: DfmIssue[] = [];
  const instances = new Map(design.part_instances.map((i) => [i.id, i]));
  config.assembly_operations.forEach((op, index) => {
    const issue = (code: string, message: string, details: Record<string, unknown> = {}): void => {
      out.push({ code, message, severity: 'blocking', accepted: false, source: 'assembly', part_id: null, hole_id: null, bend_id: null, operation: 'weld', details: { operation_index: index, ...details } });
    };
    const unknown = op.part_instance_ids.filter((id) => !instances.has(id));
    if (unknown.length) { issue('invalid_part_instance_id', `Weld ${index} names part instances that are not in design ${design.id}: ${unknown.join(', ')}.`, { part_instance_ids: unknown }); return; }
    if (new Set(op.part_instance_ids).size < 2) { issue('weld_needs_two_instances', `Weld ${index} must join at least two different part instances.`); return; }
    const groups = new Set<string>();
    for (const id of op.part_instance_ids) {
      const r = results.get(instances.get(id)!.part_id);
      if (!r) continue;
      const type = r.stock.kind === 'sheet' ? r.stock.material.type : r.stock.kind === 'tube' ? r.stock.profile.type : null;
      if (type === null) continue;
      const g = WELD_GROUP[type];
      if (g === null) { issue('weld_material_not_weldable', `Weld ${index}: ${type.replace('_', ' ')} is not welded in our shop.`, { material_type: type }); return; }
      groups.add(g);
    }
    if (groups.size > 1) issue('weld_incompatible_materials', `Weld ${index} joins steel to aluminium, which cannot be fusion welded.`, { groups: [...groups] });
  });
  return out;
}

function isAnalyzedModel(x: Design | AnalyzedModel): x is AnalyzedModel {
  return 'design' in x && 'parts' in x && 'solids' in x;
}

/** The part's DFM image, as the service serves it for this report (flat view, 800 px). */
function drawing(model: AnalyzedModel, partId: string, issues: DfmIssue[], config: Configuration): string | undefined {
  const mp = model.parts.find((p) => p.part.id === partId);
  return mp ? dfmImageSvg(mp, { view: 'flat', issues, configuration: config }) : undefined;
}

/**
 * A part left out of the job: not checked, not priced, never blocking; one warning says so and why.
 */
function leftOutReport(part: Design['parts'][number], cfg: Configuration['parts'][number] | null, catalog: Catalog, svg: string | undefined, notInstalled?: string): DfmPartReport {
  const why = leftOutReason(part, cfg, notInstalled);
  const issue: DfmIssue = {
    code: 'part_left_out', message: why.message, severity: 'warning', accepted: false, source: 'configuration',
    part_id: part.id, hole_id: null, bend_id: null, operation: null,
    details: { reason: why.reason, instance_count: part.instance_count, ...(part.bought_in ? { kind: part.bought_in.kind, size: part.bought_in.size } : {}) },
  };
  return {
    part_id: part.id, status: 'ready', issues: [issue],
    capabilities: computeCapabilities(part, { kind: 'none', reason: 'This part is left out of the job.' }, catalog),
    image_url: null, ...(svg === undefined ? {} : { image_svg: svg }),
    production_warnings: [], production_warning_details: [],
    process: part.suggested_process, material_id: null, tube_profile_id: null, finish_id: null, powder_coat_color_id: null, k_factor: null,
    left_out: why,
  };
}

/**
 * The DFM report for a design under a configuration. Throws InvalidConfigurationError (code
 * invalid_configuration, with `param`) for a malformed configuration or a part_id not in the design;
 * everything else is a finding in the report. Given the analyzed model (analyzeModel) rather than
 * its design, each part also carries its DFM image as `image_svg`.
 */
export function dfm(designOrModel: Design | AnalyzedModel, configuration: unknown, catalog: Catalog, ctx: DfmContext): DfmReport {
  const model = isAnalyzedModel(designOrModel) ? designOrModel : null;
  const design = model ? model.design : designOrModel as Design;
  if (design.status !== 'ready') throw new EngineError('invalid_configuration', `design ${design.id} is ${design.status}; DFM needs a ready design`);
  const parsed = parseConfiguration(configuration);
  const partIds = new Set(design.parts.map((p) => p.id));
  parsed.parts.forEach((p, i) => {
    if (!partIds.has(p.part_id)) {
      throw new InvalidConfigurationError(`configuration.parts[${i}].part_id`, `configuration.parts[${i}].part_id ${p.part_id} is not a part of design ${design.id}`);
    }
  });
  const ix = indexCatalog(catalog);
  const notInstalled: NotInstalled = new Map();
  const config = withLeftOutDefaults(design, parsed, catalog, ix, notInstalled);
  const accepted = new Set(config.accepted_risks);
  const results = new Map<string, PartCheckResult>();
  const requirements: DfmRequirement[] = [];
  const parts: DfmPartReport[] = design.parts.map((part) => {
    const { part: partCfg, selections } = effectiveSelections(config, part.id);
    const missing = notInstalled.get(part.id);
    if (isLeftOut(part, partCfg)) return leftOutReport(part, partCfg, catalog, model ? drawing(model, part.id, [], config) : undefined, missing && notInstalledText(missing));
    const r = checkPart(part, selections, partCfg, catalog, ix);
    results.set(part.id, r);
    const issues: DfmIssue[] = r.findings.map((f) => ({
      code: f.code, message: f.message, severity: f.severity,
      // only an acceptable risk can be accepted (and only a warning is one)
      accepted: f.severity === 'warning' && accepted.has(acceptableRiskOf(f.code) ?? ''),
      source: f.source,
      part_id: part.id, hole_id: f.hole_id, bend_id: f.bend_id ?? null, operation: f.operation, details: f.details,
    }));
    for (const q of r.requirements) {
      requirements.push({ code: q.code, message: q.message, part_id: part.id, part_ids: [part.id], field: q.field, allowed_values_url: null, catalog: q.catalog });
    }
    const blockingNow = issues.some(blocks);
    const status: DfmStatus = blockingNow ? 'blocked' : r.requirements.length ? 'requires_input' : 'ready';
    const k = r.stock.kind === 'sheet' ? partKFactor(part, r.stock.material) : null;
    // {code, message} only: a part's analysis warnings carry nothing else the report should repeat
    const warnings: Warning[] = [...part.warnings, ...r.productionWarnings].map((w) => ({ code: w.code, message: w.message }));
    const svg = model ? drawing(model, part.id, issues, config) : undefined;
    return {
      part_id: part.id,
      status,
      issues,
      capabilities: computeCapabilities(part, r.stock, catalog),
      // a URL in the API, null in the engine: the report id and part_id name the image, the service serves it
      image_url: null,
      ...(svg === undefined ? {} : { image_svg: svg }),
      production_warnings: warnings.map((w) => w.message),
      production_warning_details: warnings,
      process: part.suggested_process,
      material_id: r.stock.kind === 'sheet' ? r.stock.material.id : null,
      tube_profile_id: r.stock.kind === 'tube' ? r.stock.profile.id : null,
      finish_id: r.finishId,
      powder_coat_color_id: r.colorId,
      k_factor: k,
      left_out: null,
      bend_plan: r.bendPlan,
    };
  });
  const assembly_issues = assemblyChecks(design, config, results);
  const status = worst([...parts.map((p) => p.status), ...(assembly_issues.some(blocks) ? ['blocked' as const] : [])]);
  const generate = ctx.generateProductionFiles ?? true;
  const corrections_applied = parts.some((p) => p.production_warning_details.some(isAutomaticCorrection));
  const files = (state: ProductionFilesState['status'], reason: string | null): ProductionFilesState =>
    ({ status: state, reason, error: null, review_warning: null, corrections_applied });
  const production_files: ProductionFilesState = status !== 'ready' ? files('skipped', `dfm_${status}`)
    : generate ? files('pending', null) : files('skipped', 'not_requested');
  return {
    id: ctx.id, object: 'dfm_report', design_id: design.id, status, configuration: config,
    // the service's website review link of this report (every report has one); none from the engine
    review_url: null, review_link_id: null, parts, requirements,
    assembly_issues, production_files, catalog_version: catalog.version, created_at: ctx.now,
  };
}
