// The engine as the use cases see it. The service composes it from the worker pool (or in-process
// functions); use cases and routes never load WASM themselves.
import type { Design, Part, PartInstance, Dimensions, SuggestedProcess } from '@kerf/engine/contract.ts';

/** A file the engine made while analyzing, kept as a blob beside the design. */
export interface EngineFile {
  /** Relative name, e.g. `model.glb` or `parts/prt_x/normalized.step`. */
  name: string;
  bytes: Uint8Array;
  contentType: string;
}

export interface AnalysisOutput {
  suggested_process: SuggestedProcess | null;
  formed_dimensions: Dimensions | null;
  parts: Part[];
  part_instances: PartInstance[];
  /** Files worth keeping (models, normalized/flat STEP); others are made on demand. */
  files?: EngineFile[];
}

export type CatalogKind =
  | 'materials'
  | 'tube_profiles'
  | 'finishes'
  | 'powder_coat_colors'
  | 'taps'
  | 'studs'
  | 'nuts'
  | 'standoffs';

export interface CatalogEntry { id: string; [field: string]: unknown }

export type ProductionFileKind =
  | 'production_step'
  | 'production_model'
  | 'production_flat_step'
  | 'production_flat_model'
  | 'production_dxf'
  | 'production_bend_lines_dxf';

export const PRODUCTION_FILE_KINDS: readonly ProductionFileKind[] = [
  'production_step', 'production_model', 'production_flat_step',
  'production_flat_model', 'production_dxf', 'production_bend_lines_dxf',
];

export type Configuration = Record<string, unknown>;

/** A DFM report as the engine computes it, before ids, urls and timestamps are added. */
export interface DfmOutcome {
  status: 'ready' | 'requires_input' | 'blocked';
  parts: Array<Record<string, unknown> & { part_id: string; status: string }>;
  requirements: Array<Record<string, unknown>>;
  assembly_issues: Array<Record<string, unknown>>;
  [field: string]: unknown;
}

/** One quote item's price as the engine computes it. */
export interface PricedItem {
  unit_amount_cents: number;
  amount_cents: number;
  quantity_options: Array<{ quantity: number; unit_amount_cents: number; amount_cents: number }>;
  line_items: Array<Record<string, unknown>>;
  [field: string]: unknown;
}

export interface QuoteInputItem {
  design: Design;
  quantity: number;
  configuration: Configuration;
  quantity_options?: number[];
  dfm: DfmOutcome;
}

export interface QuoteOutcome {
  items: PricedItem[];
  fulfillment: Record<string, unknown>;
  amount_subtotal_cents: number;
  amount_shipping_cents: number;
  amount_tax_cents: number;
  [field: string]: unknown;
}

export interface EngineApi {
  /** Throws EngineError (invalid_step, empty_model, ...) for files it cannot analyze. */
  analyze(bytes: Uint8Array, options: { fileName: string; kFactor?: number }): Promise<AnalysisOutput>;
  catalog(kind: CatalogKind): Promise<CatalogEntry[]>;
  dfm(design: Design, configuration: Configuration): Promise<DfmOutcome>;
  quote(items: QuoteInputItem[], shipTo: Record<string, unknown> | null): Promise<QuoteOutcome>;
  /** Production files of one part for a configuration; null when the part has none of that kind. */
  productionFiles(input: { design: Design; source: Uint8Array; partId: string; configuration: Configuration }): Promise<Partial<Record<ProductionFileKind, EngineFile>>>;
  /** A 3D model of a hardware catalog item (stud, nut, standoff); null when there is none. */
  hardwareModel(kind: 'studs' | 'nuts' | 'standoffs', itemId: string): Promise<EngineFile | null>;
  /** Files made on demand from the source (part STEP views, images); null when unavailable. */
  designFile(input: { design: Design; source: Uint8Array; name: string }): Promise<EngineFile | null>;
  close(): Promise<void>;
}
