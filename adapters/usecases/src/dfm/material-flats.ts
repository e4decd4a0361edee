// The design as a configuration sees it: a flat uses the K-factor of the configured material, else
// the default for the detected thickness (docs/geometry.md "Bend allowance and K-factor"). A stored
// design's flats use the default K; when the configured materials give some parts another K, the
// engine re-analyzes the stored source with those K values. The result is kept per (design, K map)
// in the store, so each distinct configuration costs one analysis, in the worker pool.
import { EngineError, type Design } from '@kerf/engine';
import { type UseCaseContext, type AnalysisOutput, type Configuration, fileUnavailable, unavailable } from '../core/index.ts';
import { toEngineDesign, type DesignResult, type DesignRow, isSharedReadyRow } from '../designs/index.ts';
import { type ConfiguredDesign, kMapKey, type MaterialAnalysis, quoteCacheOf } from './quote-cache.ts';

export function materialFlatKey(designId: string, kFactorByPart: Record<string, number>): string {
  return `designs/${designId}/material-k/${kMapKey(kFactorByPart)}.json`;
}

/**
 * The ready design `row` with the flats its configuration's materials call for. For a shared ready
 * row the answer is kept per configuration (quote-cache.ts): a quote burst on one design and material
 * works out its K-factors and builds its design once.
 */
export function designForConfiguration(ctx: UseCaseContext, row: DesignRow, design: Design, configuration: Configuration | undefined): Promise<ConfiguredDesign> {
  if (!isSharedReadyRow(row)) return configureDesign(ctx, row, design, configuration);
  return quoteCacheOf(ctx).configuredDesign(ctx, row, configuration, () => configureDesign(ctx, row, design, configuration));
}

async function configureDesign(ctx: UseCaseContext, row: DesignRow, design: Design, configuration: Configuration | undefined): Promise<ConfiguredDesign> {
  // A K-factor given explicitly at upload is the customer's own choice for every flat: it stays.
  if (typeof row.options.kFactor === 'number') return { design, kFactorByPart: {} };
  const kFactorByPart = await ctx.engine.materialKFactors(design, configuration ?? {});
  if (Object.keys(kFactorByPart).length === 0) return { design, kFactorByPart };
  const key = materialFlatKey(row.id, kFactorByPart);
  const cache = quoteCacheOf(ctx);
  let analysis: MaterialAnalysis;
  const known = cache.materialAnalysis(key);
  const cached = known ? null : await ctx.store.blobs.get(key);
  if (known) {
    analysis = known;
  } else if (cached) {
    analysis = JSON.parse(cached.toString('utf8')) as MaterialAnalysis;
  } else {
    const source = await ctx.store.blobs.get(row.sourceBlobKey);
    if (!source) throw fileUnavailable('The uploaded file is no longer stored; its flat cannot be recomputed for the configured material.', 'design_id');
    let output: AnalysisOutput;
    try {
      output = await ctx.engine.analyze(new Uint8Array(source.buffer, source.byteOffset, source.byteLength), { fileName: row.name, kFactorByPart });
    } catch (err) {
      // The file analyzed once already: a failure now is the engine's state (busy, out of time), not the file's.
      if (err instanceof EngineError && err.code !== 'invalid_configuration') {
        ctx.log.warn({ design_id: row.id, code: err.code, err }, 'material K re-analysis failed');
        throw unavailable('engine_unavailable', `The flat for the configured material could not be computed now (${err.code}); retry later.`, 10);
      }
      throw err;
    }
    const { files: _files, engine_design_id: _engineId, ...out } = output;
    void _files;
    analysis = out;
    await ctx.store.blobs.put(key, Buffer.from(JSON.stringify(analysis), 'utf8'), { contentType: 'application/json' });
    ctx.log.info({ design_id: row.id, k_factor_by_part: kFactorByPart }, 'design re-analyzed with the configured materials\' K-factors');
  }
  cache.keepMaterialAnalysis(key, analysis);
  const result: DesignResult = { ...(row.result as DesignResult), ...analysis };
  return { design: toEngineDesign(ctx, { ...row, result }), kFactorByPart };
}
