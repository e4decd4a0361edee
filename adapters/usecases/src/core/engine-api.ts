// The engine as the use cases see it. The service composes it from the worker pool (or in-process
// functions); use cases and routes never load WASM themselves.
import type {
  Catalog, PressBrakeTooling, ConfigurationInput, Design, DfmImageOptions, DfmImagePart, DfmReport, IgnoredBody, Part, PartInstance, PartPrices, PriceRequest, Dimensions, SuggestedProcess,
} from '@kerf/engine';
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

/** A catalog entry as a listing reads and shows it: its fields by name. */
export interface CatalogEntry { id: string; [field: string]: unknown }

/** A catalog's entries as the engine keeps them, by the contract's catalog name (the engine Catalog's field). */
export type CatalogEntries<K extends CatalogKind> = Catalog[K];

/** A configuration as the request carries it; the engine checks it (docs/api.md "The configuration object"). */
export type Configuration = ConfigurationInput;

/** A part whose production files are wanted, with the K-factor its configured material gives its flat. */
export interface ProductionFilesPart { partId: string; kFactor?: number }

/** The DFM report as the engine computes it (parts carry `image_svg` when drawn); present.ts makes the contract's of it. */
export type DfmOutcome = DfmReport;

/** The items' DFM reports: their ids and clock, and what each reads of its design (for reuse, see EngineApi.partPrices). */
export interface PartPricesContext {
  /** ISO 8601: the reports' created_at */
  now: string;
  /** item i's report id */
  dfmIds: string[];
  /** item i's design variant */
  dfmKeys?: string[];
}

export interface EngineApi {
  /** Throws EngineError (invalid_step, empty_model, ...) for files it cannot analyze. */
  analyze(bytes: Uint8Array, options: AnalyzeRequest): Promise<AnalysisOutput>;
  /**
   * Part id -> the K-factor its configured material gives, for the parts whose flat was computed
   * with another K (empty: the design's flats already fit the configuration). Pure and fast.
   */
  materialKFactors(design: Design, configuration: Configuration): Promise<Record<string, number>>;
  catalog<K extends CatalogKind>(kind: K): Promise<CatalogEntries<K>>;
  /**
   * Part id -> one SVG per step of its press-brake bend plan under the configuration (the part on the
   * die under the punch), for the bent sheet parts whose plan found a sequence. Pure.
   */
  bendStepImages(design: Design, configuration: Configuration): Promise<Record<string, string[]>>;
  /** The catalog's press-brake tooling, or null when it has none (no bend is simulated then). */
  pressBrakeTooling(): Promise<PressBrakeTooling | null>;
  /** Throws EngineError invalid_configuration (with `param`) for a malformed configuration. */
  dfm(design: Design, configuration: Configuration, context: { id: string; now: string; generateProductionFiles: boolean }): Promise<DfmOutcome>;
  /**
   * DFM + part prices of a quote's items (designs by the items' design_id). Throws EngineError
   * invalid_configuration (with `param`). `dfmKeys[i]`, when given, names what item i's DFM reads of
   * its design (the design id and its flats' K-factors): the engine may answer from a report it made
   * before for that key, configuration and catalog, and from prices it worked out before for the
   * same items, keys and catalog (restamped with these report ids and clock). Their parts are then
   * shared and frozen: callers copy, never change them.
   */
  partPrices(request: PriceRequest, designs: Record<string, Design>, context: PartPricesContext): Promise<PartPrices>;
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
  view: DfmImageOptions['view'];
  format: 'svg' | 'png';
  width: number;
  /** the report's issues of the part, in order (their numbers on the image) */
  issues: DfmImagePart['issues'];
  /** the report's configuration (operations on holes are named on the image) */
  configuration: Configuration | null;
  /** the K-factor the report's flat used */
  k_factor: number | null;
  /** the legend of the findings under the drawing (default true; the web's quote page lists them itself) */
  legend?: boolean;
  signal?: AbortSignal;
}

/** What several parts' DFM images are drawn from: per part, what DfmImageRequest gives one. */
export interface DfmImagesRequest extends Omit<DfmImageRequest, 'part_id' | 'issues' | 'k_factor'> {
  parts: Pick<DfmImageRequest, 'part_id' | 'issues' | 'k_factor'>[];
}
