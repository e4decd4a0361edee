// DFM: configuration validation, rules, capabilities, annotated images and the report.
export { dfm } from './report.ts';
export type { DfmContext } from './report.ts';
// the report's shapes: schemas (for documents and validators) and their types
export {
  DfmReport, DfmPartReport, DfmIssue, DfmRequirement, ProductionFilesState, Capabilities, CapabilityList, CapabilityOption, HoleCapabilities, HoleCapability,
  DFM_STATUSES, ISSUE_SOURCES, SEVERITIES, type DfmStatus, type IssueSource, type Severity,
} from './contract.ts';
export { parseConfiguration, effectiveSelections, InvalidConfigurationError } from './configuration.ts';
export type { Configuration, ConfigurationInput, PartConfiguration, Selections, WeldOperation, Side } from './configuration.ts';
export * as rules from './rules.ts';
export { partKFactor, materialKFactors } from './k-factor.ts';
export { thicknessTolerance } from './rules.ts';
export { tubeProfileFits } from './tube-stock.ts';
export { withFlatsUsed } from './flats-used.ts';
export { bendPlansOf, bendStepImagesOf, bendTablesOf } from './bend-plans.ts';
export type { BendPlan as BendPlanObject, BendPlanStep, BendPlanBend } from '../brake/plan.ts';
