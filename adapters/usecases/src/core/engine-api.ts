// The engine as the use cases see it. The service composes it from the worker pool (or in-process
// functions); use cases and routes never load WASM themselves.
import type { Design, IgnoredBody, Part, PartInstance, Dimensions, SuggestedProcess } from '@kerf/engine';
import type { CatalogName } from './links.ts';
import type { ProductionFileKind } from './schemas.ts';

/** A file the engine made while analyzing, kept as a blob beside the design. */
export interface EngineFile {
  /** Relative name, e.g. `model.glb` or `parts/prt_x/normalized.step`. */
  name: string;
  bytes: Uint8Array;
  contentType: string;
}

export interface AnalysisOutput {
  /** The engine's own id for this file's design (`des_` + content hash); the service gives stored designs ids of its own. */
  engine_design_id?: string;
  suggested_process: SuggestedProcess | null;
  formed_dimensions: Dimensions | null;
  parts: Part[];
  part_instances: PartInstance[];
  /** Bodies of the file that are not parts, with why (absent from engines that do not report them). */
  ignored_bodies?: IgnoredBody[];
  /** Files worth keeping (models, normalized/flat STEP); others are made on demand. */
  files?: EngineFile[];
}

export interface AnalyzeRequest {
  fileName: string;
  /** explicit K-factor for every flat */
  kFactor?: number;
  /** explicit K-factor by part id (a configured material's), wins over kFactor */
  kFactorByPart?: Record<string, number>;
}

export type CatalogKind = CatalogName;

export interface CatalogEntry { id: string; [field: string]: unknown }

export type Configuration = Record<string, unknown>;

/** A part whose production files are wanted, with the K-factor its configured material gives its flat. */
export interface ProductionFilesPart { partId: string; kFactor?: number }

/** The API's DFM report as the engine computes it (parts may carry `image_svg`). */
export interface DfmOutcome {
  id: string;
  object: 'dfm_report';
  design_id: string;
  status: 'ready' | 'requires_input' | 'blocked';
  configuration: Configuration;
  parts: Array<Record<string, unknown> & { part_id: string; status: string; image_svg?: string }>;
  requirements: Array<Record<string, unknown>>;
  assembly_issues: Array<Record<string, unknown>>;
  production_files: { status: 'pending' | 'ready' | 'failed' | 'skipped'; reason: string | null; error: { code: string; message: string } | null; review_warning: { design_id: string; code: string; message: string } | null };
  created_at: string;
  [field: string]: unknown;
}

/** The API's quote as the engine computes it; each item carries its full DFM report. */
export interface QuoteOutcome {
  id: string;
  object: 'quote';
  status: 'ready' | 'requires_input' | 'blocked';
  items: Array<Record<string, unknown> & { design_id: string; dfm: DfmOutcome }>;
  production_files: { review_warning: { design_id: string; code: string; message: string } | null };
  [field: string]: unknown;
}

export interface EngineApi {
  /** Throws EngineError (invalid_step, empty_model, ...) for files it cannot analyze. */
  analyze(bytes: Uint8Array, options: AnalyzeRequest): Promise<AnalysisOutput>;
  /**
   * Part id -> the K-factor its configured material gives, for the parts whose flat was computed
   * with another K (empty: the design's flats already fit the configuration). Pure and fast.
   */
  materialKFactors(design: Design, configuration: Configuration): Promise<Record<string, number>>;
  catalog(kind: CatalogKind): Promise<CatalogEntry[]>;
  /** Throws EngineError invalid_configuration (with `param`) for a malformed configuration. */
  dfm(design: Design, configuration: Configuration, context: { id: string; now: string; generateProductionFiles: boolean }): Promise<DfmOutcome>;
  /**
   * DFM + price of a quote request. Throws EngineError invalid_configuration (with `param`).
   * `dfmKey(i)`, when given, names what item i's DFM reads of its design (the design id and its
   * flats' K-factors): the engine may answer from a report it made before for that key,
   * configuration and catalog, and from a quote it made before for the same request, keys, catalog
   * and UTC day (restamped with this quote's ids and clock). Its parts are then shared and frozen:
   * callers copy, never change them.
   */
  quote(request: unknown, designs: Record<string, Design>, context: { id: string; now: string; dfmId(itemIndex: number): string; dfmKey?(itemIndex: number): string }): Promise<QuoteOutcome>;
  /**
   * Production files of the given parts for a configuration, from one analysis of the source (an
   * assembly is imported once, not once per part): part id -> kind -> file; a kind the part does not
   * have is absent. Each part's flat uses its `kFactor` when given, else the default for its r/t.
   */
  productionFiles(input: { design: Design; source: Uint8Array; parts: ProductionFilesPart[]; configuration: Configuration }): Promise<Record<string, Partial<Record<ProductionFileKind, EngineFile>>>>;
  /** A 3D model of a hardware catalog item (stud, nut, standoff); null when there is none. */
  hardwareModel(kind: 'studs' | 'nuts' | 'standoffs', itemId: string): Promise<EngineFile | null>;
  /** Files made on demand from the source (part STEP views, images); null when unavailable. */
  designFile(input: { design: Design; source: Uint8Array; name: string; signal?: AbortSignal }): Promise<EngineFile | null>;
  /** A part's DFM image: its findings drawn on its flat (or a formed view) with a legend; null for an unknown part or view. */
  dfmImage(input: DfmImageRequest): Promise<EngineFile | null>;
  /** Several parts' DFM images, in the order asked (null for an unknown part), from one analysis of the source. */
  dfmImages(input: DfmImagesRequest): Promise<(EngineFile | null)[]>;
  close(): Promise<void>;
}

/** What a DFM image is drawn from: the report's findings of one part, its configuration and K-factor. */
export interface DfmImageRequest {
  design: Design;
  source: Uint8Array;
  part_id: string;
  view: string;
  format: 'svg' | 'png';
  width: number;
  /** the report's issues of the part, in order (their numbers on the image) */
  issues: unknown[];
  configuration: unknown;
  /** the K-factor the report's flat used */
  k_factor: number | null;
  signal?: AbortSignal;
}

/** What several parts' DFM images are drawn from: per part, what DfmImageRequest gives one. */
export interface DfmImagesRequest extends Omit<DfmImageRequest, 'part_id' | 'issues' | 'k_factor'> {
  parts: Pick<DfmImageRequest, 'part_id' | 'issues' | 'k_factor'>[];
}
