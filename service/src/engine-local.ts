// EngineApi from the engine's functions, run in this process. The service swaps in the worker pool
// version when it is available; the use cases cannot tell the difference.
import {
  analyze, analyzeModel, defaultCatalog, designFileOf, dfm, dfmImage, dfmImages, EngineError, fileNameOf, findHardware, hardwareModelGlb,
  isDesignFileName, materialKFactors, partPrices, productionFilesForModel, bendTablesOf, bendStepImagesOf,
  type AnalyzedModel, type Catalog, type DfmImageOptions, type DfmImagesOptions, type Design, type Hardware,
  type PartPrices, type PressBrakeTooling, type PriceRequest, type ProductionFiles,
} from '@kerf/engine';
import {
  contentTypeOf, EngineMemo, type AnalysisOutput, type AnalyzeRequest, type CatalogEntries, type CatalogKind, type DfmOutcome, type EngineApi, type EngineConfiguration as Configuration,
  type EngineFile, type PartPricesContext, type ProductionFilesPart, type schemas,
} from '@kerf/usecases';


type ProductionFileKind = schemas.ProductionFileKind;
export type DfmImageRequest = Parameters<EngineApi['dfmImage']>[0];
export type DfmImagesRequest = Parameters<EngineApi['dfmImages']>[0];


function file(name: string, bytes: Uint8Array): EngineFile {
  return { name, bytes, contentType: contentTypeOf(name) };
}

/** `parts/<id>/<rest>` or `<rest>` for the design itself. */
function splitName(name: string): { partId: string | null; rest: string } {
  const m = /^parts\/([^/]+)\/(.+)$/.exec(name);
  return m ? { partId: m[1], rest: m[2] } : { partId: null, rest: name };
}

/** The engine's options for a DFM image (the report's issues as the engine's image reads them). */
export function dfmImageOptions(input: DfmImageRequest): DfmImageOptions {
  const { parts: [part], ...common } = dfmImagesOptions({ ...input, parts: [input] });
  return { ...common, ...part };
}

/** The engine's options for several parts' DFM images. */
export function dfmImagesOptions(input: DfmImagesRequest): DfmImagesOptions {
  return {
    view: input.view, format: input.format, width: input.width, configuration: input.configuration, fileName: input.design.name,
    ...(input.legend === false ? { legend: false } : {}),
    parts: input.parts.map((p) => ({ partId: p.part_id, issues: p.issues, kFactor: p.k_factor })),
  };
}

/** A DFM image's bytes as the file the use cases take. */
export function dfmImageFile(input: Pick<DfmImageRequest, 'view' | 'format'>, bytes: Uint8Array | null): EngineFile | null {
  return bytes ? file(`dfm-${input.view}.${input.format}`, bytes) : null;
}

/** The engine's options for the parts of a production-files request: their ids and their own K-factors. */
export function productionRequest(parts: ProductionFilesPart[]): { partIds: string[]; kFactorByPart: Record<string, number> } {
  const kFactorByPart: Record<string, number> = {};
  for (const p of parts) if (p.kFactor !== undefined) kFactorByPart[p.partId] = p.kFactor;
  return { partIds: parts.map((p) => p.partId), kFactorByPart };
}

/** The engine's production files as the use cases take them: named, typed, one entry per requested part. */
export function productionFilesOut(partIds: string[], files: ProductionFiles): Record<string, Partial<Record<ProductionFileKind, EngineFile>>> {
  const out: Record<string, Partial<Record<ProductionFileKind, EngineFile>>> = {};
  for (const id of partIds) {
    const made: Partial<Record<ProductionFileKind, EngineFile>> = {};
    for (const [kind, bytes] of Object.entries(files[id] ?? {})) {
      const k = kind as ProductionFileKind;
      if (bytes) made[k] = file(fileNameOf(k), bytes);
    }
    out[id] = made;
  }
  return out;
}

export class LocalEngine implements EngineApi {
  private readonly catalogData: Catalog = defaultCatalog();
  /** the DFM reports and part prices it worked out for quotes (the quote cache, @kerf/usecases' dfm/quote-cache.ts) */
  private readonly memo = new EngineMemo();

  async analyze(bytes: Uint8Array, options: AnalyzeRequest): Promise<AnalysisOutput> {
    // the stored design keeps each flat's cut contours for nesting; no served view shows them (docs/nesting.md "Part outlines")
    const d = await analyze(bytes, { ...options, flatOutlines: true });
    return { engine_design_id: d.id, suggested_process: d.suggested_process, formed_dimensions: d.formed_dimensions, parts: d.parts, part_instances: d.part_instances, ignored_bodies: d.ignored_bodies };
  }

  async catalog<K extends CatalogKind>(kind: K): Promise<CatalogEntries<K>> {
    return this.catalogData[kind];
  }

  async materialKFactors(design: Design, configuration: Configuration): Promise<Record<string, number>> {
    return materialKFactors(design, configuration, this.catalogData);
  }

  async dfm(design: Design, configuration: Configuration, context: { id: string; now: string; generateProductionFiles: boolean }): Promise<DfmOutcome> {
    return dfm(design, configuration, this.catalogData, context);
  }

  async partPrices(request: PriceRequest, designs: Record<string, Design>, context: PartPricesContext): Promise<PartPrices> {
    const { dfmKeys, ...stamp } = context;
    // without variant keys (the quote cache is off) every quote is worked out afresh
    if (!dfmKeys) return partPrices(request, designs, this.catalogData, stamp);
    return this.memo.partPrices(request, designs, this.catalogData, { ...stamp, dfmKeys });
  }

  private async model(source: Uint8Array, design: Design): Promise<AnalyzedModel> {
    return analyzeModel(source, { fileName: design.name });
  }

  async productionFiles(input: { design: Design; source: Uint8Array; parts: ProductionFilesPart[]; configuration: Configuration }): Promise<Record<string, Partial<Record<ProductionFileKind, EngineFile>>>> {
    const { partIds, kFactorByPart } = productionRequest(input.parts);
    const model = await analyzeModel(input.source, { fileName: input.design.name, kFactorByPart });
    return productionFilesOut(partIds, await productionFilesForModel(input.source, model.parts, { partIds, kinds: ['production'], bendTables: this.bendTables(input.design, input.configuration) }));
  }

  async pressBrakeTooling(): Promise<PressBrakeTooling | null> {
    return this.catalogData.press_brake ?? null;
  }

  async bendStepImages(design: Design, configuration: Configuration): Promise<Record<string, string[]>> {
    return bendStepImagesOf(design, configuration, this.catalogData);
  }

  /** Each bent part's bend table (its press-brake plan under the configuration) for its bend-lines DXF. */
  protected bendTables(design: Design, configuration: Configuration): Record<string, string[][]> {
    // the files do not wait on the table: a configuration the report took is taken here too, but
    // should it not be, the DXF goes out without its table rather than not at all
    try { return bendTablesOf(design, configuration, this.catalogData); } catch { return {}; }
  }

  async hardwareModel(kind: 'studs' | 'nuts' | 'standoffs', itemId: string): Promise<EngineFile | null> {
    const item = findHardware(this.catalogData, kind, itemId) as Hardware | null;
    return item ? file(`${itemId}.glb`, hardwareModelGlb(item)) : null;
  }

  async designFile(input: { design: Design; source: Uint8Array; name: string }): Promise<EngineFile | null> {
    const model = await this.model(input.source, input.design);
    if (isDesignFileName(input.name)) {
      const bytes = await designFileOf(input.source, model, input.name);
      return bytes ? file(splitName(input.name).rest, bytes) : null;
    }
    const { partId, rest } = splitName(input.name);
    if (!partId) return null;
    const mp = model.parts.find((p) => p.part.id === partId);
    if (!mp) return null;
    const single = async (kind: string, name: string): Promise<EngineFile | null> => {
      const files = await productionFilesForModel(input.source, model.parts, { partIds: [partId], kinds: [kind] });
      const bytes = (files[partId] as Record<string, Uint8Array | undefined> | undefined)?.[kind];
      return bytes ? file(name, bytes) : null;
    };
    switch (rest) {
      case 'formed.glb': return single('production_model', rest);
      case 'flat.glb': return single('production_flat_model', rest);
      case 'normalized.step': return single('production_step', rest);
      case 'flat.step': return single('production_flat_step', rest);
    }
    const img = /^image-([a-z]+)-(\d+)\.(svg|png)$/.exec(rest);
    if (img) return this.partImage(input.source, model, partId, img[1], Number(img[2]), img[3] as 'svg' | 'png', rest);
    return null;
  }

  async dfmImage(input: DfmImageRequest): Promise<EngineFile | null> {
    return dfmImageFile(input, await dfmImage(input.source, dfmImageOptions(input)));
  }

  async dfmImages(input: DfmImagesRequest): Promise<(EngineFile | null)[]> {
    return (await dfmImages(input.source, dfmImagesOptions(input))).map((bytes) => dfmImageFile(input, bytes));
  }

  private async partImage(source: Uint8Array, model: AnalyzedModel, partId: string, view: string, width: number, format: 'svg' | 'png', name: string): Promise<EngineFile | null> {
    const kind = `image_${view}_${format}`;
    let files;
    try {
      files = await productionFilesForModel(source, model.parts, { partIds: [partId], kinds: [kind], imageWidth: width, imageHeight: Math.round(width * 0.75) });
    } catch (err) {
      if (err instanceof EngineError && err.code === 'invalid_configuration') return null;
      throw err;
    }
    const bytes = (files[partId] as Record<string, Uint8Array | undefined> | undefined)?.[kind];
    return bytes ? file(name, bytes) : null;
  }

  async close(): Promise<void> {}
}
