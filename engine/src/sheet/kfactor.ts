// K-factor (ANSI convention: neutral axis at K x t from the inside face, 0 < K <= 0.5) and default
// bend radii. Catalog materials carry their own tables; this generic air-bending table is the default
// when no material is configured.

/** [r/t, K] rows, sorted by r/t. Generic air bending of mild steel. */
export type KFactorTable = ReadonlyArray<readonly [number, number]>;

export const DEFAULT_K_TABLE: KFactorTable = [
  [0.0, 0.33],
  [0.5, 0.38],
  [1.0, 0.42],
  [1.5, 0.44],
  [2.0, 0.45],
  [3.0, 0.46],
  [4.0, 0.47],
  [5.0, 0.48],
  [8.0, 0.5],
];

/**
 * Linear interpolation over the whole table (not only its first rows), clamped at both ends.
 * ratio = inner radius / thickness.
 */
export function interpolateKFactor(table: KFactorTable, ratio: number): number {
  if (table.length === 0) throw new RangeError('empty K-factor table');
  if (!Number.isFinite(ratio) || ratio <= table[0][0]) return table[0][1];
  const last = table[table.length - 1];
  if (ratio >= last[0]) return last[1];
  for (let i = 1; i < table.length; i++) {
    const [r1, k1] = table[i];
    if (ratio <= r1) {
      const [r0, k0] = table[i - 1];
      return k0 + ((k1 - k0) * (ratio - r0)) / (r1 - r0);
    }
  }
  return last[1];
}

export function defaultKFactor(innerRadiusMm: number, thicknessMm: number): number {
  return interpolateKFactor(DEFAULT_K_TABLE, innerRadiusMm / thicknessMm);
}

/** Inner radius applied to bends modelled sharp (zero radius): one thickness, the common shop default. */
export function defaultInnerRadius(thicknessMm: number): number {
  return thicknessMm;
}

/** Bend allowance, mm: angle (degrees) x (r_inner + K t). */
export function bendAllowance(angleDegrees: number, innerRadiusMm: number, kFactor: number, thicknessMm: number): number {
  return (angleDegrees * Math.PI / 180) * (innerRadiusMm + kFactor * thicknessMm);
}
