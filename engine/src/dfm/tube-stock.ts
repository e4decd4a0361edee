// A tube part against the catalog's tube profiles: which profiles are its section, the nearest ones
// when none is, the section in words ("80 x 80 x 4 mm square"), and whether the model's corners are
// the stock's.
import type { Part } from '../contract.ts';
import type { TubeProfile } from '../catalog/types.ts';
import {
  TUBE_CORNER_RADIUS_TOL_ABS_MM, TUBE_CORNER_RADIUS_TOL_WALLS, TUBE_SIZE_TOL_ABS_MM, TUBE_SIZE_TOL_REL, TUBE_WALL_TOL_ABS_MM, TUBE_WALL_TOL_REL,
} from './rules.ts';

type Tube = NonNullable<Part['tube']>;

/** How many nearest profiles a finding names when none is the part's section. */
export const NEAREST_PROFILES = 3;
/** Ranking of the nearest profiles: a millimetre of wall weighs as much as this many of outer size. */
const WALL_WEIGHT = 10;

const n = (x: number): string => String(Number(x.toFixed(2)));

/** Outer sizes, larger first (a round tube: its diameter twice). */
function sides(t: { d: number | null; w: number | null; h: number | null }): [number, number] {
  if (t.d !== null) return [t.d, t.d];
  const a = [t.w ?? 0, t.h ?? 0].sort((x, y) => y - x);
  return [a[0], a[1]];
}
const tubeSides = (t: Tube) => sides({ d: t.profile === 'round' ? t.outer_diameter_mm : null, w: t.outer_width_mm, h: t.outer_height_mm });
const profileSides = (p: TubeProfile) => sides({ d: p.shape === 'round' ? p.outer_diameter_mm : null, w: p.outer_width_mm, h: p.outer_height_mm });

/** Whether a catalog tube profile is the part's section: shape, outer size and wall within the tube tolerances. */
export function tubeProfileFits(tube: Tube, p: TubeProfile): boolean {
  const near = (a: number | null, b: number | null, tol: (x: number) => number): boolean => a !== null && b !== null && Math.abs(a - b) <= tol(b);
  const sizeTol = (x: number): number => Math.max(TUBE_SIZE_TOL_ABS_MM, TUBE_SIZE_TOL_REL * x);
  const wallTol = (x: number): number => Math.max(TUBE_WALL_TOL_ABS_MM, TUBE_WALL_TOL_REL * x);
  if (!near(tube.wall_thickness_mm, p.wall_thickness_mm, wallTol)) return false;
  if (tube.profile === 'round' || p.shape === 'round') return tube.profile === p.shape && near(tube.outer_diameter_mm, p.outer_diameter_mm, sizeTol);
  const a = tubeSides(tube), b = profileSides(p);
  return near(a[0], b[0], sizeTol) && near(a[1], b[1], sizeTol);
}

/** "80 x 80 x 4 mm square" / "48.3 x 3.2 mm round": the section as a stockist lists it. */
export function sectionText(tube: Tube): string {
  if (tube.profile === 'round') return `${n(tube.outer_diameter_mm ?? 0)} x ${n(tube.wall_thickness_mm)} mm round`;
  const [a, b] = tubeSides(tube);
  return `${n(a)} x ${n(b)} x ${n(tube.wall_thickness_mm)} mm ${tube.profile}`;
}

/** Available profiles of the part's section. */
export function profilesOfSection(tube: Tube, profiles: Iterable<TubeProfile>): TubeProfile[] {
  return [...profiles].filter((p) => p.available && tubeProfileFits(tube, p));
}

/** The available profiles closest to the part's section: same kind (round, or square/rectangular) first,
 * then by outer size and wall. */
export function nearestProfiles(tube: Tube, profiles: Iterable<TubeProfile>, count = NEAREST_PROFILES): TubeProfile[] {
  const round = tube.profile === 'round';
  const [a, b] = tubeSides(tube);
  const score = (p: TubeProfile): number => {
    const [pa, pb] = profileSides(p);
    return Math.abs(pa - a) + Math.abs(pb - b) + WALL_WEIGHT * Math.abs(p.wall_thickness_mm - tube.wall_thickness_mm);
  };
  return [...profiles].filter((p) => p.available && (p.shape === 'round') === round)
    .map((p) => ({ p, s: score(p) }))
    .sort((x, y) => x.s - y.s || x.p.id.localeCompare(y.p.id))
    .slice(0, count)
    .map((x) => x.p);
}

/** What the catalog offers for a section, in words: its profiles, or that it has none and the nearest. */
export function catalogOffer(tube: Tube, profiles: Iterable<TubeProfile>): { text: string; matching: string[]; nearest: string[] } {
  const list = [...profiles];
  const matching = profilesOfSection(tube, list).map((p) => p.id);
  if (matching.length > 0) return { text: `Profiles of that section: ${matching.join(', ')}.`, matching, nearest: [] };
  const nearest = nearestProfiles(tube, list);
  const names = nearest.map((p) => `${p.id} (${p.display_name})`).join(', ');
  return { text: `No ${sectionText(tube)} profile in the catalog${nearest.length > 0 ? `; nearest: ${names}` : ''}.`, matching, nearest: nearest.map((p) => p.id) };
}

/** The model's outer corner radius against the stock's, when they differ by more than the stock's own
 * spread (EN 10219: 1.6 to 2.4 x wall about 2 x wall); null when they agree or the tube is round. */
export function cornerRadiusDifference(tube: Tube, p: TubeProfile): { model_mm: number; stock_mm: number } | null {
  if (tube.profile === 'round' || p.shape === 'round' || tube.corner_radius_mm === null || p.corner_radius_mm === null) return null;
  const tol = Math.max(TUBE_CORNER_RADIUS_TOL_ABS_MM, TUBE_CORNER_RADIUS_TOL_WALLS * p.wall_thickness_mm);
  return Math.abs(tube.corner_radius_mm - p.corner_radius_mm) > tol ? { model_mm: tube.corner_radius_mm, stock_mm: p.corner_radius_mm } : null;
}
