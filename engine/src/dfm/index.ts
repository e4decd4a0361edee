// DFM: configuration validation, rules, capabilities, annotated images and the report.
export { dfm } from './report.ts';
export type { DfmReport, DfmPartReport, DfmIssue, DfmRequirement, DfmStatus, DfmContext, ProductionFilesState, IssueSource } from './report.ts';
export { parseConfiguration, effectiveSelections, InvalidConfigurationError } from './configuration.ts';
export type { Configuration, ConfigurationInput, PartConfiguration, Selections, WeldOperation, Side } from './configuration.ts';
export type { Capabilities, CapabilityList, CapabilityOption, HoleCapabilities, HoleCapability } from './capabilities.ts';
export * as rules from './rules.ts';
export { partKFactor, materialKFactors } from './k-factor.ts';
export { thicknessTolerance } from './rules.ts';
export { tubeProfileFits } from './part-checks.ts';
export { withFlatsUsed } from './flats-used.ts';
