// The design as a configuration sees it: a flat uses the K-factor of the configured material, else
// the default for the detected thickness (docs/geometry.md "Bend allowance and K-factor"). A stored
// design's flats use the default K; when the configured materials give some parts another K, the
// engine re-analyzes the stored source with those K values. The result is kept per (design, K map)
// in the store, so each distinct configuration costs one analysis, in the worker pool.
import { createHash } from 'node:crypto';
import { BoundedMap } from '@kerf/common';
import { deepFreeze, EngineError, type Design } from '@kerf/engine';
import { type UseCaseContext, type AnalysisOutput, type Configuration, fileUnavailable, unavailable, PerStore } from '../core/index.ts';
import { toPublicDesign, type DesignResult, type DesignRow, isSharedReadyRow } from '../designs/index.ts';

export interface ConfiguredDesign {
  design: Design;
  /** part id -> the material K-factor its flat was recomputed with (empty: the stored flats fit) */
  kFactorByPart: Record<string, number>;
}

/** K maps named lately (canonical text -> name): every quote names its items' maps, most of them the same few. */
const NAMED_MAX = 256;
const named = new BoundedMap<string, string>(NAMED_MAX);

/** Stable name of a K map: the same map always finds the same cached analysis. */
export function kMapKey(kFactorByPart: Record<string, number>): string {
  const canonical = Object.keys(kFactorByPart).sort().map((id) => `${id}=${kFactorByPart[id]}`).join(';');
  let name = named.get(canonical);
  if (name === undefined) {
    name = createHash('sha256').update(canonical).digest('hex').slice(0, 24);
    named.set(canonical, name);
  }
  return name;
}

export function materialFlatKey(designId: string, kFactorByPart: Record<string, number>): string {
  return `designs/${designId}/material-k/${kMapKey(kFactorByPart)}.json`;
}

type CachedAnalysis = Omit<AnalysisOutput, 'files'>;

/** Parsed analyses most recently used, per store: a quote burst on one design reads the blob once. */
const RECENT_MAX = 32;
const recent = new PerStore<CachedAnalysis>(RECENT_MAX);

/** Configurations worked out lately per shared ready row (isSharedReadyRow). */
const CONFIGURED_MAX = 16;
interface Configured { engine: UseCaseContext['engine']; links: UseCaseContext['links']; byConfiguration: BoundedMap<string, Promise<ConfiguredDesign>> }
const configuredOf = new WeakMap<DesignRow, Configured>();

/**
 * The ready design `row` with the flats its configuration's materials call for. For a shared ready
 * row the answer is kept per configuration (same engine and links): a quote burst on one design
 * and material works out its K-factors and builds its design once. Kept designs are frozen.
 */
export function designForConfiguration(ctx: UseCaseContext, row: DesignRow, design: Design, configuration: Configuration | undefined): Promise<ConfiguredDesign> {
  if (!isSharedReadyRow(row)) return configureDesign(ctx, row, design, configuration);
  let known = configuredOf.get(row);
  if (known?.engine !== ctx.engine || known.links !== ctx.links) configuredOf.set(row, known = { engine: ctx.engine, links: ctx.links, byConfiguration: new BoundedMap(CONFIGURED_MAX) });
  const key = JSON.stringify(configuration ?? {});
  let answer = known.byConfiguration.get(key);
  if (!answer) {
    const byConfiguration = known.byConfiguration;
    answer = configureDesign(ctx, row, design, configuration).then((c) => deepFreeze(c));
    // a refused configuration or a failed re-analysis is not kept: the next request tries again
    answer.catch(() => { if (byConfiguration.get(key) === answer) byConfiguration.delete(key); });
    byConfiguration.set(key, answer);
  }
  return answer;
}

async function configureDesign(ctx: UseCaseContext, row: DesignRow, design: Design, configuration: Configuration | undefined): Promise<ConfiguredDesign> {
  // A K-factor given explicitly at upload is the customer's own choice for every flat: it stays.
  if (typeof row.options.kFactor === 'number') return { design, kFactorByPart: {} };
  const kFactorByPart = await ctx.engine.materialKFactors(design, configuration ?? {});
  if (Object.keys(kFactorByPart).length === 0) return { design, kFactorByPart };
  const key = materialFlatKey(row.id, kFactorByPart);
  let analysis: CachedAnalysis;
  const known = recent.of(ctx.store).get(key);
  const cached = known ? null : await ctx.store.blobs.get(key);
  if (known) {
    analysis = known;
  } else if (cached) {
    analysis = JSON.parse(cached.toString('utf8')) as CachedAnalysis;
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
  recent.of(ctx.store).set(key, analysis);
  const result: DesignResult = { ...(row.result as DesignResult), ...analysis };
  return { design: toPublicDesign(ctx, { ...row, result }), kFactorByPart };
}
