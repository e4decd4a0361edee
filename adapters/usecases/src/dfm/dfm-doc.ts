// A DFM report as kept: the contract's report with the blob keys of its production files.
import type { Doc, DfmOutcome, ProductionFileKind } from '../core/index.ts';

export interface DfmDoc extends Doc {
  object: 'dfm_report';
  design_id: string;
  status: 'ready' | 'requires_input' | 'blocked';
  production_files: DfmOutcome['production_files'];
  /** blob keys of production files: part id -> kind -> key */
  _files?: Record<string, Partial<Record<ProductionFileKind, { key: string; contentType: string; name: string }>>>;
}
