// A DFM report as kept: the contract's report with the blob keys of its production files.
import type { Doc, DfmOutcome, PresentedDfmPart, PresentedRequirement, ProductionFileKind } from '../core/index.ts';

export interface DfmDoc extends Doc {
  object: 'dfm_report';
  design_id: string;
  status: 'ready' | 'requires_input' | 'blocked';
  configuration: DfmOutcome['configuration'];
  /** the website review link the report carries */
  review_url: string | null;
  review_link_id: string | null;
  parts: PresentedDfmPart[];
  requirements: PresentedRequirement[];
  /** as the engine made it; one whose files failed no longer says whether corrections were applied */
  production_files: Omit<DfmOutcome['production_files'], 'corrections_applied'> & { corrections_applied?: boolean };
  /** blob keys of production files: part id -> kind -> key */
  _files?: Record<string, Partial<Record<ProductionFileKind, { key: string; contentType: string; name: string }>>>;
}
