// A DFM report as kept: the contract's report with the blob keys of its production files.
import type { Doc, DfmOutcome, PresentedDfmPart, ProductionFileKind } from '../core/index.ts';

export interface DfmDoc extends Doc {
  object: 'dfm_report';
  design_id: string;
  status: 'ready' | 'requires_input' | 'blocked';
  configuration: DfmOutcome['configuration'];
  parts: PresentedDfmPart[];
  /** as the engine made it; one whose files failed no longer says whether corrections were applied */
  production_files: Omit<DfmOutcome['production_files'], 'corrections_applied'> & { corrections_applied?: boolean };
  /** blob keys of production files: part id -> kind -> key */
  _files?: Record<string, Partial<Record<ProductionFileKind, { key: string; contentType: string; name: string }>>>;
}
