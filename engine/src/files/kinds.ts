// Names of the production files and images, and the file name each is written under.
import { VIEWS, type ViewName } from './views.ts';

export const PRODUCTION_KINDS = [
  'production_step',
  'production_flat_step',
  'production_model',
  'production_flat_model',
  'production_dxf',
  'production_bend_lines_dxf',
] as const;
export type ProductionKind = (typeof PRODUCTION_KINDS)[number];

export type ImageKind = `image_${ViewName}_${'svg' | 'png'}`;
export type FileKind = ProductionKind | ImageKind;

export const IMAGE_KINDS: ImageKind[] = VIEWS.flatMap((v) => [`image_${v}_svg`, `image_${v}_png`] as ImageKind[]);
export const ALL_KINDS: FileKind[] = [...PRODUCTION_KINDS, ...IMAGE_KINDS];

/** Kinds that only exist for a sheet part with a flat pattern; the flat images also for a tube, as its unrolled wall */
export const FLAT_ONLY_KINDS = new Set<FileKind>(['production_flat_step', 'production_flat_model', 'production_dxf', 'production_bend_lines_dxf', 'image_flat_svg', 'image_flat_png']);

const EXTENSION: Record<ProductionKind, string> = {
  production_step: 'step',
  production_flat_step: 'step',
  production_model: 'glb',
  production_flat_model: 'glb',
  production_dxf: 'dxf',
  production_bend_lines_dxf: 'dxf',
};

/** File name inside DIR/<part id>/: production_step.step, production_model.glb, image_iso.svg ... */
export function fileNameOf(kind: FileKind): string {
  const m = /^image_([a-z]+)_(svg|png)$/.exec(kind);
  if (m) return `image_${m[1]}.${m[2]}`;
  return `${kind}.${EXTENSION[kind as ProductionKind]}`;
}

/** Expands a requested list: exact kind names, or the groups 'images', 'svg', 'png', 'production'. */
export function expandKinds(requested: readonly string[] | undefined): Set<FileKind> {
  if (!requested || requested.length === 0) return new Set(ALL_KINDS);
  const out = new Set<FileKind>();
  for (const r of requested) {
    if (r === 'images') IMAGE_KINDS.forEach((k) => out.add(k));
    else if (r === 'svg' || r === 'png') IMAGE_KINDS.filter((k) => k.endsWith(`_${r}`)).forEach((k) => out.add(k));
    else if (r === 'production') PRODUCTION_KINDS.forEach((k) => out.add(k));
    else if ((ALL_KINDS as string[]).includes(r)) out.add(r as FileKind);
    else throw new RangeError(r);
  }
  return out;
}
