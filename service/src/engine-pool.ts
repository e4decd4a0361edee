// EngineApi over the engine's worker pool: the heavy work (STEP import, recognition, production
// files, images) runs in worker threads with per-job time and memory limits, so the event loop keeps
// answering requests and renewing job leases. DFM and pricing are pure and fast: they stay in-process.
import { createEngine, isDesignFileName, type Design, type Engine, type EngineStats } from '@kerf/engine';
import { contentTypeOf, type AnalysisOutput, type AnalyzeRequest, type EngineConfiguration as Configuration, type EngineFile, type ProductionFilesPart, type schemas } from '@kerf/usecases';
import { dfmImageFile, dfmImageOptions, dfmImagesOptions, LocalEngine, type DfmImageRequest, type DfmImagesRequest, productionFilesOut, productionRequest } from './engine-local.ts';
import { InteractiveGate } from './interactive-gate.ts';


/** Part files the pool makes directly, by the name the use cases ask for. */
const PART_FILE_KINDS: Record<string, string> = {
  'formed.glb': 'production_model',
  'flat.glb': 'production_flat_model',
  'normalized.step': 'production_step',
  'flat.step': 'production_flat_step',
};

export interface PoolOptions { threads: number; timeoutMs: number; maxMemoryMb: number; maxQueue?: number; idleTimeoutMs?: number }

/** Interactive jobs (images, models for a waiting client) waiting for the gate, per process. */
const INTERACTIVE_MAX_WAITING = 32;

export class PoolEngine extends LocalEngine {
  private readonly pool: Engine;
  /** Half the threads at most make files for waiting clients; the others stay free for analyses. */
  private readonly interactive: InteractiveGate;

  constructor(options: PoolOptions) {
    super();
    this.pool = createEngine({ threads: options.threads, timeoutMs: options.timeoutMs, maxMemoryMb: options.maxMemoryMb, maxQueue: options.maxQueue, idleTimeoutMs: options.idleTimeoutMs });
    this.interactive = new InteractiveGate(Math.max(1, Math.floor(options.threads / 2)), INTERACTIVE_MAX_WAITING);
  }

  override async analyze(bytes: Uint8Array, options: AnalyzeRequest): Promise<AnalysisOutput> {
    // the stored design keeps each flat's cut contours for nesting; no served view shows them (docs/nesting.md "Part outlines")
    const d = await this.pool.analyze(bytes, { ...options, flatOutlines: true });
    return { engine_design_id: d.id, suggested_process: d.suggested_process, formed_dimensions: d.formed_dimensions, parts: d.parts, part_instances: d.part_instances, ignored_bodies: d.ignored_bodies };
  }

  override async productionFiles(input: { design: Design; source: Uint8Array; parts: ProductionFilesPart[]; configuration: Configuration }): Promise<Record<string, Partial<Record<schemas.ProductionFileKind, EngineFile>>>> {
    const { partIds, kFactorByPart } = productionRequest(input.parts);
    return productionFilesOut(partIds, await this.pool.generateProductionFiles(input.source, { partIds, kinds: ['production'], kFactorByPart, bendTables: this.bendTables(input.design, input.configuration) }));
  }

  override async designFile(input: { design: Design; source: Uint8Array; name: string; signal?: AbortSignal }): Promise<EngineFile | null> {
    return this.interactive.run(input.signal, () => this.makeDesignFile(input));
  }

  override async dfmImage(input: DfmImageRequest): Promise<EngineFile | null> {
    return dfmImageFile(input, await this.interactive.run(input.signal, () => this.pool.dfmImage(input.source, dfmImageOptions(input))));
  }

  override async dfmImages(input: DfmImagesRequest): Promise<(EngineFile | null)[]> {
    const images = await this.interactive.run(input.signal, () => this.pool.dfmImages(input.source, dfmImagesOptions(input)));
    return images.map((bytes) => dfmImageFile(input, bytes));
  }

  private async makeDesignFile(input: { design: Design; source: Uint8Array; name: string }): Promise<EngineFile | null> {
    // A one-part design's model and image are its part's: made in the pool too.
    const only = input.design.parts.length === 1 && input.design.part_instances.length <= 1 ? input.design.parts[0] : null;
    if (only && (input.name === 'model.glb' || /^image-[a-z]+-\d+\.(svg|png)$/.test(input.name))) {
      const partName = input.name === 'model.glb' ? 'formed.glb' : input.name;
      const file = await this.makeDesignFile({ ...input, name: `parts/${only.id}/${partName}` });
      return file ? { ...file, name: input.name } : null;
    }
    const m = /^parts\/([^/]+)\/(.+)$/.exec(input.name);
    if (m) {
      const [, partId, rest] = m;
      const img = /^image-([a-z]+)-(\d+)\.(svg|png)$/.exec(rest);
      const kind = PART_FILE_KINDS[rest] ?? (img ? `image_${img[1]}_${img[3]}` : null);
      if (kind) {
        const width = img ? Number(img[2]) : undefined;
        const files = await this.pool.generateProductionFiles(input.source, {
          partIds: [partId], kinds: [kind], ...(width ? { imageWidth: width, imageHeight: Math.round(width * 0.75) } : {}),
        });
        const bytes = (files[partId] as Record<string, Uint8Array | undefined> | undefined)?.[kind];
        return bytes ? { name: rest, bytes, contentType: contentTypeOf(rest) } : null;
      }
    }
    // Design-level files and a part's source STEP in file coordinates: in the pool too, so the
    // event loop never runs the importer or a writer.
    if (isDesignFileName(input.name)) {
      const bytes = await this.pool.designFile(input.source, { name: input.name, fileName: input.design.name });
      const name = input.name.split('/').pop()!;
      return bytes ? { name, bytes, contentType: contentTypeOf(name) } : null;
    }
    return null;
  }

  /** Jobs the worker pool has run (and is running): what reached the threads, not the event loop. */
  stats(): EngineStats { return this.pool.stats(); }

  /** Called after the job worker has finished or released its jobs: anything still running is abandoned. */
  override async close(): Promise<void> {
    await this.pool.close({ force: true });
  }
}
