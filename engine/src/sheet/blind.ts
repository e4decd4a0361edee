// Partial-depth work on a sheet: counterbores and spot faces, blind holes, pockets and recesses,
// engraving, chamfers and fillets on sheet edges, modelled threads. A laser cuts straight through the
// sheet and can make none of these, so they are found here from the faces between the two skins that
// do not run from one skin to the other, named and measured; the flat keeps what goes through.
//
// Depths are measured from the skin the feature opens on (side A = the unfolded skin, B = the other).
import type { BlindFeatureKind, ConeSurface, CylinderSurface, Face, Solid, Vec2, Vec3 } from '../geometry/model.ts';
import { cross, dot, norm, point, scale, sub } from '../geometry/vec.ts';
import { coaxialCylinders } from '../geometry/axes.ts';
import { faceComponents } from '../geometry/components.ts';
import { convexHull, enclosingRectangle } from './align.ts';
import { flatPoint, type Unfolding } from './unfold.ts';

/** A plane this close to parallel with the skin (cosine) is a floor. */
const FLOOR_COS = 1 - 1e-6;
/** A face this close to perpendicular to the skin (cosine) is a wall (or a cylinder along the normal). */
const WALL_COS = 1e-3;
/** A face spanning the thickness within this runs through the sheet; depths within it of a skin are on it, mm. */
const THROUGH_DEPTH_TOLERANCE = 5e-3;
/** Blind work shallower than this is modelling noise on a skin, not work, mm: faces a few microns off the
 * skin where folds meet in a Fusion export (measured 0.005 mm, within its declared 0.01 mm accuracy) were
 * taken for modelled threads 0.95 mm across. The largest declared accuracy the fits honour (geometry/fit.ts). */
const MIN_BLIND_DEPTH_MM = 0.01;
/** A bend's inner and outer cylinders differ in radius by the thickness within this, mm. */
const BEND_PAIR_THICKNESS_MM = 1e-2;
/** A blind recess whose floor is at most this wide is engraving (a stroke), mm. */
export const ENGRAVING_MAX_STROKE_MM = 2;
/**
 * Blind work removing more than this fraction of the through volume (flat area x t) is not a recess in
 * a sheet: the part is a machined or stepped block (docs/dfm-rules.md "DFM rules": recess vs thickness change).
 */
export const MACHINED_VOLUME_FRACTION = 0.15;

export interface FoundBlindFeature {
  /** a countersink is no blind feature (a secondary operation, a hole property) but removes material too */
  kind: BlindFeatureKind | 'countersink';
  faces: number[];
  /** faces of the feature that reach the other skin (a counterbore's or thread's through hole wall) */
  throughFaces: number[];
  /** the skin it opens on */
  mouth: 'A' | 'B';
  /** centre (source frame), mm */
  center: Vec3;
  /** centre in the unaligned flat, mm */
  flat: Vec2;
  size: number;
  length: number | null;
  depth: number;
  /** radius of the through hole under a counterbore (cut at this radius), mm */
  throughRadius: number | null;
  /** material the feature removes below its mouth, mm3 */
  volume: number;
  /**
   * material under the feature's opening in skin A down to the far skin, mm3: a volume check over
   * skin A counts the opening as empty, this puts the material back (0 for features opening on B)
   */
  underMouthA: number;
}

type Role = 'floor' | 'wall' | 'incline' | 'roll' | 'cone' | 'odd';

interface Local { depthA: (p: Vec3) => number; normalA: (p: Vec3) => Vec3; aFace: number }

function radialOf(c: CylinderSurface, p: Vec3): { r: number; dir: Vec3 } {
  const d = sub(p, c.origin);
  const rad = sub(d, scale(c.axis, dot(d, c.axis)));
  const r = norm(rad);
  return { r, dir: r > 0 ? scale(rad, 1 / r) : [0, 0, 0] };
}

/** Depth below a skin face (into the material, along its outward normal) and that normal at p. */
function skinDepth(face: Face, p: Vec3): { depth: number; normal: Vec3 } | null {
  const s = face.surface;
  if (s.kind === 'plane') return { depth: s.offset - dot(s.normal, p), normal: s.normal };
  if (s.kind === 'cylinder') {
    const { r, dir } = radialOf(s, p);
    return s.convex ? { depth: s.radius - r, normal: dir } : { depth: r - s.radius, normal: scale(dir, -1) };
  }
  return null;
}

/** The far skin (B): faces opposite the unfolded skin at the thickness (planes) or coaxial at R -/+ t. */
function otherSkin(solid: Solid, u: Unfolding, sheetFaces: Map<number, Set<number>>): Map<number, number> {
  const partner = new Map<number, number>();
  const bends = [...u.skin].map((f) => solid.faces[f]).filter((f) => f.surface.kind === 'cylinder');
  for (const g of solid.faces) {
    if (u.skin.has(g.id)) continue;
    if (g.surface.kind === 'plane') {
      const a = [...(sheetFaces.get(g.id) ?? [])].find((x) => u.skin.has(x));
      if (a !== undefined) partner.set(g.id, a);
    } else if (g.surface.kind === 'cylinder') {
      const gs = g.surface;
      const a = bends.find((f) => {
        const fs = f.surface as CylinderSurface;
        return coaxialCylinders(fs, gs) && Math.abs(Math.abs(fs.radius - gs.radius) - u.thickness) < BEND_PAIR_THICKNESS_MM;
      });
      if (a) partner.set(g.id, a.id);
    }
  }
  return partner;
}

function triangleGeometry(solid: Solid, t: number): { c: Vec3; n: Vec3; area: number } {
  const a = point(solid.points, solid.triangles[t * 3]), b = point(solid.points, solid.triangles[t * 3 + 1]), c = point(solid.points, solid.triangles[t * 3 + 2]);
  const x = cross(sub(b, a), sub(c, a));
  const l = norm(x);
  return { c: scale([a[0] + b[0] + c[0], a[1] + b[1] + c[1], a[2] + b[2] + c[2]], 1 / 3), n: l > 0 ? scale(x, 1 / l) : [0, 0, 0], area: l / 2 };
}

/**
 * Every piece of partial-depth work on the unfolded sheet. `exclude`: faces already explained (formed
 * features and hardware standing out of the sheet).
 */
export function findBlindFeatures(solid: Solid, u: Unfolding, sheetFaces: Map<number, Set<number>>, exclude: Set<number>): FoundBlindFeature[] {
  const t = u.thickness, tol = THROUGH_DEPTH_TOLERANCE;
  const partnerB = otherSkin(solid, u, sheetFaces);
  const isSkin = (f: number) => u.skin.has(f) || partnerB.has(f);
  const candidates = solid.faces.filter((f) => !isSkin(f.id) && !exclude.has(f.id));
  if (candidates.length === 0) return [];
  const candidate = new Set(candidates.map((f) => f.id));

  // each candidate's nearest skin face (breadth first through candidates): the surface its depth is measured from
  const local = new Map<number, Local>();
  const localOf = (skinFace: number): Local => {
    const inA = u.skin.has(skinFace);
    const face = solid.faces[skinFace];
    const aFace = inA ? skinFace : partnerB.get(skinFace)!;
    return {
      aFace,
      depthA: (p) => { const d = skinDepth(face, p)!; return inA ? d.depth : t - d.depth; },
      normalA: (p) => { const d = skinDepth(face, p)!; return inA ? d.normal : scale(d.normal, -1); },
    };
  };
  let frontier: number[] = [];
  for (const f of candidates) {
    const s = [...f.neighbours].sort((a, b) => a - b).find((g) => isSkin(g) && (solid.faces[g].surface.kind === 'plane' || solid.faces[g].surface.kind === 'cylinder'));
    if (s !== undefined) { local.set(f.id, localOf(s)); frontier.push(f.id); }
  }
  while (frontier.length > 0) {
    const next: number[] = [];
    for (const f of frontier) for (const g of solid.faces[f].neighbours) if (candidate.has(g) && !local.has(g)) { local.set(g, local.get(f)!); next.push(g); }
    frontier = next;
  }

  // role and depth span of each candidate
  const role = new Map<number, Role>();
  const partial = new Set<number>();
  const spanOf = new Map<number, [number, number]>();
  for (const f of candidates) {
    const L = local.get(f.id);
    if (!L) continue;
    let lo = Infinity, hi = -Infinity, sum: Vec3 = [0, 0, 0];
    for (const v of f.vertices) {
      const p = point(solid.points, v);
      const d = L.depthA(p);
      lo = Math.min(lo, d); hi = Math.max(hi, d);
      sum = [sum[0] + p[0], sum[1] + p[1], sum[2] + p[2]];
    }
    spanOf.set(f.id, [lo, hi]);
    const n = L.normalA(scale(sum, 1 / Math.max(1, f.vertices.length)));
    const s = f.surface;
    let r: Role = 'odd';
    if (s.kind === 'plane') { const c = Math.abs(dot(s.normal, n)); r = c > FLOOR_COS ? 'floor' : c < WALL_COS ? 'wall' : 'incline'; }
    else if (s.kind === 'cylinder') { const c = Math.abs(dot(s.axis, n)); r = c > FLOOR_COS ? 'wall' : c < WALL_COS ? 'roll' : 'odd'; }
    else if (s.kind === 'cone') r = Math.abs(dot(s.axis, n)) > FLOOR_COS ? 'cone' : 'odd';
    role.set(f.id, r);
    const insideSlab = lo > -tol && hi < t + tol;
    if (!insideSlab) continue;
    // a floor strictly between the skins; anything else that does not span the thickness
    // (a cone is always taken: a countersink reaching through the sheet removes material all the same)
    if (r === 'floor' ? lo > tol && lo < t - tol : r === 'cone' || (r !== 'wall' && hi - lo < t - tol)) partial.add(f.id);
  }
  if (partial.size === 0) return [];
  // walls of recesses: a wall beside a floor or a cone (hole bottom) that does not span the thickness
  const member = new Set(partial);
  for (const f of partial) {
    const r = role.get(f)!;
    if (r !== 'floor' && r !== 'cone' && r !== 'odd') continue;
    for (const g of solid.faces[f].neighbours) {
      const sp = spanOf.get(g);
      if (role.get(g) === 'wall' && sp && sp[1] - sp[0] < t - tol) member.add(g);
    }
  }
  const groups = faceComponents(solid, member);
  return groups.map((g) => describe(solid, u, g, role, local.get(g[0])!, partnerB, t)).filter((f) => f.kind === 'countersink' || f.depth >= MIN_BLIND_DEPTH_MM);
}

function describe(solid: Solid, u: Unfolding, faces: number[], role: Map<number, Role>, L: Local, partnerB: Map<number, number>, t: number): FoundBlindFeature {
  const roles = faces.map((f) => role.get(f)!);
  const has = (r: Role) => roles.includes(r);
  const touches = (side: 'A' | 'B') => faces.some((f) => solid.faces[f].neighbours.some((g) => (side === 'A' ? u.skin.has(g) : partnerB.has(g))));
  const touchA = touches('A'), touchB = touches('B');
  // which skin it opens on: where its faces look (a floor or chamfer faces its opening)
  let facing = 0;
  const tris: Array<{ c: Vec3; n: Vec3; area: number }> = [];
  for (const f of faces) for (const tri of solid.faces[f].triangles) { const g = triangleGeometry(solid, tri); tris.push(g); facing += dot(g.n, L.normalA(g.c)) * g.area; }
  const mouth: 'A' | 'B' = touchA && !touchB ? 'A' : touchB && !touchA ? 'B' : facing >= 0 ? 'A' : 'B';
  const depthM = (p: Vec3) => (mouth === 'A' ? L.depthA(p) : t - L.depthA(p));
  const normalM = (p: Vec3) => (mouth === 'A' ? L.normalA(p) : scale(L.normalA(p), -1));
  let volume = 0, underA = 0, projected = 0, area = 0;
  for (const g of tris) {
    const w = dot(g.n, normalM(g.c)) * g.area;
    volume += w * depthM(g.c);
    projected += Math.abs(w); area += g.area;
    if (mouth === 'A') underA += w * (t - depthM(g.c));
  }
  const throughFaces = faces.filter((f) => solid.faces[f].neighbours.some((g) => (mouth === 'A' ? partnerB.has(g) : u.skin.has(g))));
  // depth of the blind part: a counterbore's floor, not the through hole under it
  const blindFaces = faces.filter((f) => !throughFaces.includes(f) || role.get(f) !== 'wall');
  const min: Vec3 = [Infinity, Infinity, Infinity], max: Vec3 = [-Infinity, -Infinity, -Infinity];
  let depth = 0;
  for (const f of faces) for (const v of solid.faces[f].vertices) {
    const p = point(solid.points, v);
    for (let k = 0; k < 3; k++) { min[k] = Math.min(min[k], p[k]); max[k] = Math.max(max[k], p[k]); }
    if (blindFaces.includes(f)) depth = Math.max(depth, depthM(p));
  }
  const center: Vec3 = [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2];
  const walls = faces.filter((f) => role.get(f) === 'wall' && solid.faces[f].surface.kind === 'cylinder').map((f) => solid.faces[f].surface as CylinderSurface);
  const cones = faces.filter((f) => role.get(f) === 'cone');
  const floors = faces.filter((f) => role.get(f) === 'floor');
  const radii = [...new Set(walls.map((w) => Number(w.radius.toFixed(4))))].sort((a, b) => a - b);
  const coaxialWalls = walls.length > 0 && walls.every((w) => coaxialCylinders(w, walls[0]));
  const flatOf = (p: Vec3): Vec2 => flatPoint(u.maps.get(L.aFace) ?? u.maps.get(u.root)!, p);
  const base = { faces, throughFaces, mouth, depth, volume, underMouthA: underA, throughRadius: null as number | null };

  // a modelled thread is grooves round one axis; cones on several axes are the corners of a chamfered outline
  const coneSurfaces = cones.map((f) => solid.faces[f].surface as ConeSurface);
  const asAxis = (c: ConeSurface): CylinderSurface => ({ kind: 'cylinder', origin: c.apex, axis: c.axis, radius: 0, convex: c.convex } as CylinderSurface);
  const coaxialCones = coneSurfaces.every((c) => coaxialCylinders(asAxis(c), asAxis(coneSurfaces[0])));
  let kind: FoundBlindFeature['kind'];
  if (has('odd') || (cones.length >= 2 && (coaxialCones || !has('incline')))) kind = 'thread';
  else if (floors.length > 0) {
    if (touchA && touchB) kind = coaxialWalls && radii.length >= 2 ? 'counterbore' : 'pocket';
    else if (coaxialWalls && radii.length === 1 && walls.reduce((s, w) => s + w.spanDegrees, 0) >= 359 && faces.every((f) => role.get(f) !== 'wall' || solid.faces[f].surface.kind === 'cylinder')) kind = 'blind_hole';
    else {
      const floorArea = floors.reduce((s, f) => s + solid.faces[f].area, 0);
      const wallArea = faces.filter((f) => role.get(f) === 'wall').reduce((s, f) => s + solid.faces[f].area, 0);
      kind = wallArea > 0 && (2 * floorArea * depth) / wallArea <= ENGRAVING_MAX_STROKE_MM ? 'engraving' : 'pocket';
    }
  } else if (cones.length === 1) {
    // one cone at a through hole is a countersink (a hole property, kept for the volume it removes); at
    // a blind bore, its drill point
    if (touchA && touchB) return { ...base, kind: 'countersink', center, flat: flatOf(center), size: 0, length: null };
    kind = 'blind_hole';
  } else kind = has('incline') ? 'edge_chamfer' : 'edge_fillet';

  // a round feature's axis: its wall, else its cone (a drill point, a thread modelled as grooves)
  const coneSurface = cones.length > 0 ? (solid.faces[cones[0]].surface as ConeSurface) : null;
  const axis = walls[0] ? { origin: walls[0].origin, dir: walls[0].axis } : coneSurface ? { origin: coneSurface.apex, dir: coneSurface.axis } : null;
  if (axis && (kind === 'counterbore' || kind === 'blind_hole' || kind === 'thread')) {
    const h = dot(sub(center, axis.origin), axis.dir);
    const c: Vec3 = [axis.origin[0] + axis.dir[0] * h, axis.origin[1] + axis.dir[1] * h, axis.origin[2] + axis.dir[2] * h];
    // radial reach of the feature: a thread's major and minor diameters; a bore's wall
    let rMin = Infinity, rMax = 0;
    for (const f of faces) for (const v of solid.faces[f].vertices) {
      const d = sub(point(solid.points, v), axis.origin);
      const r = norm(sub(d, scale(axis.dir, dot(d, axis.dir))));
      rMin = Math.min(rMin, r); rMax = Math.max(rMax, r);
    }
    const size = kind === 'thread' || radii.length === 0 ? 2 * rMax : 2 * radii[radii.length - 1];
    const throughRadius = kind === 'counterbore' ? radii[0] : kind === 'thread' ? rMin : null;
    return { ...base, kind, center: c, flat: flatOf(c), size, length: null, throughRadius };
  }
  if (kind === 'edge_fillet') {
    const r = Math.max(...faces.map((f) => solid.faces[f].surface).map((x) => (x.kind === 'cylinder' ? x.radius : 0)));
    return { ...base, kind, center, flat: flatOf(center), size: r, length: r > 0 ? projected / r : null };
  }
  if (kind === 'edge_chamfer') {
    // width across the edge from the projected and true areas: S/P = slant/width, slant^2 = width^2 + depth^2
    const ratio = projected > 0 ? area / projected : Infinity;
    const width = ratio > 1 + 1e-9 ? depth / Math.sqrt(ratio * ratio - 1) : depth;
    return { ...base, kind, center, flat: flatOf(center), size: width, length: width > 0 ? projected / width : null };
  }
  // pockets, engraving, threads without a wall: the smallest rectangle round the feature in the flat
  const hull = convexHull(faces.flatMap((f) => [...solid.faces[f].vertices].map((v) => flatOf(point(solid.points, v)))));
  const rect = hull.length >= 3 ? enclosingRectangle(hull.map((a, i) => ({ kind: 'line' as const, a, b: hull[(i + 1) % hull.length] }))) : { length: 0, width: 0 };
  return { ...base, kind, center, flat: flatOf(center), size: rect.width, length: rect.length };
}
