// A design as the contract shows it: the stored row (the analysis job's result) made public with the
// URLs of its files and parts, which the serving transport's Links make.
import type { DesignRecord } from '@kerf/store';
import type { Design, Part } from '@kerf/engine';
import type { EngineContext, AnalysisOutput } from '../core/index.ts';

/** What the analysis job stores as the design's result. */
export interface DesignResult extends AnalysisOutput {
  /** blob keys of the files the engine made, by relative name */
  fileKeys: Record<string, string>;
  /** the design's own review link, made with the ready transition (absent on designs readied before links existed) */
  reviewLinkId?: string;
}

export type DesignRow = DesignRecord<DesignResult>;

export function sourceKey(designId: string): string { return `designs/${designId}/source.step`; }
export function fileKey(designId: string, name: string): string { return `designs/${designId}/files/${name}`; }

/** What a design view is made from: a stored row, or an analysis nobody keeps (`kerf dfm`). */
export type DesignState = Pick<DesignRow, 'id' | 'status' | 'name' | 'createdAt' | 'result' | 'error'>;

function publicPart(ctx: Pick<EngineContext, 'links'>, designId: string, part: Part, keepOutline: boolean): Part {
  // the flat's cut contours are the engine's nesting input, kept in the stored design only
  const { _flat_outline: outline, ...shown } = part;
  return {
    ...shown,
    ...(keepOutline && outline ? { _flat_outline: outline } : {}),
    model_url: ctx.links.partModel(designId, part.id, 'formed'),
    flat_pattern_model_url: part.flat_pattern ? ctx.links.partModel(designId, part.id, 'flat') : null,
    image_url: ctx.links.partImage(designId, part.id),
  };
}

/** The contract's design: the engine's Design with the website review link of a ready design. */
export type DesignView = Design & { review_url: string | null; review_link_id: string | null };

export function toPublicDesign(ctx: Pick<EngineContext, 'links'>, rec: DesignState, reviewLinkId: string | null = null): DesignView {
  return designView(ctx, rec, reviewLinkId, false);
}

function designView(ctx: Pick<EngineContext, 'links'>, rec: DesignState, reviewLinkId: string | null, keepOutlines: boolean): DesignView {
  const r = rec.status === 'ready' ? rec.result : null;
  const url = ctx.links.design(rec.id);
  return {
    id: rec.id,
    object: 'design',
    status: rec.status,
    status_url: url,
    name: rec.name,
    created_at: rec.createdAt,
    suggested_process: r?.suggested_process ?? null,
    formed_dimensions: r?.formed_dimensions ?? null,
    parts: r ? r.parts.map((p) => publicPart(ctx, rec.id, p, keepOutlines)) : [],
    part_instances: r?.part_instances ?? [],
    model_url: r ? ctx.links.designModel(rec.id) : null,
    image_url: r ? ctx.links.designImage(rec.id) : null,
    review_url: r && reviewLinkId ? ctx.links.reviewPage(reviewLinkId) : null,
    review_link_id: r ? reviewLinkId : null,
    error: rec.status === 'failed' ? rec.error ?? { code: 'analysis_failed', message: 'The analysis failed.' } : null,
    // designs analysed before bodies were accounted for have none recorded
    ignored_bodies: r?.ignored_bodies ?? [],
  };
}

/**
 * The design as the engine is given it (DFM, prices, files): the public view with each sheet part's
 * flat cut contours (`_flat_outline`, docs/nesting.md "Part outlines") that the stored design keeps
 * and no served view shows. Never serve it.
 */
export function toEngineDesign(ctx: Pick<EngineContext, 'links'>, rec: DesignState): DesignView {
  return designView(ctx, rec, null, true);
}
