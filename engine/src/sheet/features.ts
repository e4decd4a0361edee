// Modelled features standing out of the sheet: an extruded (flanged) hole, a louver or emboss, or
// pressed-in hardware (PEM standoff, stud, nut) fused into the solid. A shop makes the base sheet and
// forms or inserts the feature afterwards, so such a part is unfolded without the feature and says
// where it is. Anything large (a second wall, a rib along the part, a machined block) stays refused.
import type { CylinderSurface, Solid, Vec3 } from '../geometry/model.ts';
import { coaxialCylinders } from '../geometry/axes.ts';
import { norm, sub } from '../geometry/vec.ts';
import type { OutsideFeature } from './slab.ts';

/** A feature's outside extent may be at most this fraction of the part's bounding-box diagonal. */
const MAX_FEATURE_FRACTION = 0.2;
/** A cylindrical boss at most this many thicknesses high is an extruded hole (formed); taller is hardware. */
const EXTRUDED_HOLE_MAX_HEIGHT_T = 1.5;
/** A boss's outer cylinders are one wall when their radii differ by less than this, mm. */
const SAME_RADIUS_MM = 1e-2;

/** Press-in hardware a fused boss is taken for (hardware-holes.ts): what the flat cuts under it. */
export interface ModelledHardware {
  kind: 'nut' | 'stud' | 'standoff';
  size: string;
  /** height above the sheet, mm */
  length: number;
  /** the catalog's mounting hole for it, mm */
  mountingHole: number;
  /** the hole it is seated in, set once hole ids are known */
  holeId?: number;
}

export type FeatureKind = 'extruded_hole' | 'hardware' | 'formed';

export interface SheetFeature {
  kind: FeatureKind;
  /** warning code: formed_feature_ignored or hardware_modelled */
  code: 'formed_feature_ignored' | 'hardware_modelled';
  faces: number[];
  /** centre of the material outside the sheet, model coordinates, mm */
  center: Vec3;
  /** how far it stands out of the sheet, mm */
  height: number;
  /** outer diameter of a cylindrical boss, mm (null when not cylindrical) */
  outerDiameter: number | null;
  /** bore diameter of a cylindrical boss, mm */
  boreDiameter: number | null;
  /** material the feature adds outside the sheet, mm3 (0 for formed features that only displace it) */
  volume: number;
  /** hardware: the catalog part it is taken for and the mounting hole the flat gets (hardware-holes.ts) */
  mount?: ModelledHardware | null;
}

/**
 * Classify the outside features; returns null with the first unacceptable one when any is too big to
 * be a feature of a sheet (then the part is not sheet metal).
 */
export function classifyFeatures(solid: Solid, thickness: number, outside: OutsideFeature[]): { features: SheetFeature[] } | { rejected: OutsideFeature } {
  const diag = norm(sub(solid.bbox.max, solid.bbox.min));
  const features: SheetFeature[] = [];
  for (const o of outside) {
    const extent = norm(sub(o.faceMax, o.faceMin));
    // material beyond every skin face's footprint is sheet the skin walk never reached, not a feature on it
    if (!Number.isFinite(o.worst.distance) || extent > MAX_FEATURE_FRACTION * diag) return { rejected: o };
    const cyl = o.faces.map((f) => solid.faces[f].surface).filter((s): s is CylinderSurface => s.kind === 'cylinder');
    const outer = cyl.filter((c) => c.convex).reduce<CylinderSurface | null>((a, b) => (!a || b.radius > a.radius ? b : a), null);
    const bore = outer ? cyl.filter((c) => !c.convex && c.radius < outer.radius && coaxialCylinders(c, outer)).reduce<CylinderSurface | null>((a, b) => (!a || b.radius > a.radius ? b : a), null) : null;
    const height = o.worst.distance;
    // a boss: its outer wall goes all the way round (the pieces of the wall add up to a full turn)
    const turn = outer ? cyl.filter((c) => c.convex && Math.abs(c.radius - outer.radius) < SAME_RADIUS_MM && coaxialCylinders(c, outer)).reduce((s, c) => s + c.spanDegrees, 0) : 0;
    if (outer && turn >= 359) {
      const r = bore?.radius ?? 0;
      // an extrusion's collar is thinner than the sheet it is drawn from and not much taller than it
      const kind: FeatureKind = bore && outer.radius - bore.radius < thickness && height <= EXTRUDED_HOLE_MAX_HEIGHT_T * thickness ? 'extruded_hole' : 'hardware';
      features.push({
        kind, code: kind === 'hardware' ? 'hardware_modelled' : 'formed_feature_ignored', faces: o.faces, center: o.center, height,
        outerDiameter: 2 * outer.radius, boreDiameter: bore ? 2 * r : null, volume: Math.PI * (outer.radius ** 2 - r ** 2) * height,
      });
    } else {
      features.push({ kind: 'formed', code: 'formed_feature_ignored', faces: o.faces, center: o.center, height, outerDiameter: null, boreDiameter: null, volume: 0 });
    }
  }
  return { features };
}

/**
 * Diameter of the hole to cut for an extruded hole, mm: the collar is drawn from the ring of sheet
 * between this pre-hole and the bore, so by volume constancy pi/4 (bore^2 - d^2) t = collar volume.
 * Null when the collar holds more material than the whole bore disc: it cannot be drawn from this sheet.
 */
export function extrusionPreHole(f: SheetFeature, thickness: number): number | null {
  if (f.kind !== 'extruded_hole' || f.boreDiameter === null) return null;
  const d2 = f.boreDiameter ** 2 - (4 * f.volume) / (Math.PI * thickness);
  return d2 > 0 ? Math.sqrt(d2) : null;
}

/**
 * The words of an extruded hole's warning when the flat cuts the computed pre-hole instead of the
 * modelled bore: the DFM report reads them to say production files carry an automatic correction.
 */
export const EXTRUSION_PRE_HOLE_WORDS = 'pre-hole there';

/** One warning line for a feature, with where it is and what the flat has there (sheet thickness in mm). */
export function describeFeature(f: SheetFeature, holeDiameter: number | null, thickness: number): string {
  const at = `at (${f.center.map((x) => x.toFixed(1)).join(', ')})`;
  const size = f.outerDiameter !== null ? `Ø${f.outerDiameter.toFixed(2)}${f.boreDiameter !== null ? `/Ø${f.boreDiameter.toFixed(2)}` : ''} mm, ` : '';
  const flat = holeDiameter !== null ? `the flat cuts a Ø${holeDiameter.toFixed(2)} mm hole there` : 'the flat has no hole there';
  if (f.kind === 'hardware' && f.mount) return `${f.mount.size} ${f.mount.kind} (${size}${f.height.toFixed(2)} mm high) is modelled into the sheet ${at}; it is left out of the flat and pressed in after cutting: ${holeDiameter !== null ? `the flat cuts a Ø${holeDiameter.toFixed(2)} mm mounting hole there` : 'the flat has no hole there'}, and the hole's hardware selection defaults to the catalog's ${f.mount.size} ${f.mount.kind}`;
  if (f.kind === 'hardware') return `hardware (standoff, stud or nut: ${size}${f.height.toFixed(2)} mm high) is modelled into the sheet ${at}; it is left out of the flat and must be inserted after cutting; ${flat}`;
  if (f.kind === 'extruded_hole') {
    const head = `an extruded (flanged) hole (${size}${f.height.toFixed(2)} mm high) ${at} is formed after cutting and left out of the flat`;
    // the same rule the flat was cut with (index.ts), not a guess from the diameter it ended up with
    if (extrusionPreHole(f, thickness) === null) return `${head}; ${flat} (the bore): the collar holds more material than the bore's disc, so it cannot be drawn from this sheet as modelled`;
    if (holeDiameter === null) return `${head}; ${flat}`;
    return `${head}; the flat cuts a Ø${holeDiameter.toFixed(2)} mm ${EXTRUSION_PRE_HOLE_WORDS}, the ring out to the Ø${f.boreDiameter!.toFixed(2)} mm bore being the collar's material (volume kept); check it against the tooling`;
  }
  return `a formed feature (louver, lance, emboss or dimple, ${f.height.toFixed(2)} mm out of the sheet) ${at} is left out of the flat; ${flat}`;
}
