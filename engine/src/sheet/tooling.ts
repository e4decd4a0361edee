// How much a bend modelled sharp (or as a closed hem) changes the flat when a shop makes it with a
// tooling radius instead of the modelled one. The design flat follows the model; this is the
// production view's adjustment, reported beside it (sharp_bend, DFM sharp_bend_radius_applied).

/** From this bend angle on, a bend is a hem: its legs keep their length and only the arc grows, radians. */
const HEM_ANGLE = (179 * Math.PI) / 180;

/**
 * Change of the flat length, mm, when a bend of `angle` (radians) modelled with inner radius
 * `modelled` is made with `tooling` instead, at the same K (its K t part cancels): the flanges keep their mold lines (the
 * setback shrinks the legs by 2 (R - r) tan(angle / 2)) except on a hem, whose legs keep their length.
 */
export function toolingRadiusAdjustment(angle: number, modelled: number, tooling: number): number {
  // the K t part of the allowance is the same at both radii
  const arc = angle * (tooling - modelled);
  return angle >= HEM_ANGLE ? arc : arc - 2 * (tooling - modelled) * Math.tan(angle / 2);
}
