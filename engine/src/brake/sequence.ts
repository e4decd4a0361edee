// A feasible bend sequence: a depth-first search over the set of bends already made, trying at each
// step the bends left (outer bends first, then by id, so the answer is the same every time) with
// each punch that takes the bend and both ways round, and checking every try for collisions
// (./collide.ts) of the part folded that far (./section.ts). A set of bends that leads nowhere is
// remembered; a try depends only on the bends that share its sections or stand at its ends, so it
// is remembered by those. Past a budget of tries the search stops and says so.
import type { BendInfo } from '../contract.ts';
import type { Die, PressBrakeTooling, Punch } from '../catalog/press-brake.ts';
import { collision, type Obstacle } from './collide.ts';
import { foldAndPlace, lineFrame, parallel, sectionAcross, zoneWidth, type LineFrame, type Section } from './section.ts';
import type { BendSetup } from './per-bend.ts';
import { basePlacement, singleLevelFlanges, solidHit, type Flange } from './solid.ts';

/** Sections are taken across each bend at these fractions of its line. */
const SECTION_AT = [0.15, 0.5, 0.85];
/** The stroke is checked at these fractions of the bend angle. */
const STROKE_AT = [1, 2 / 3, 1 / 3];
/** A punch or die up to this much shorter than the bend line still forms it (its ends sit in the reliefs): min(mm, fraction of the line). */
const SHORTER_TOOL_MM = 10;
const SHORTER_TOOL_FRACTION = 0.1;
/** A bend standing within this of the end of a bend line (across it) raises its flange beside the tools, mm beyond the tool's half-width. */
const END_REACH_MM = 5;
/** A punch's angle may exceed the bend's included angle by this much, degrees (springback is not modelled). */
const PUNCH_ANGLE_TOL_DEG = 0.5;
/** Collision checks (one section, one stroke position, one punch and orientation) before the search stops. */
export const MAX_CHECKS = 1200;

export interface Step {
  bend_id: number;
  punch: Punch;
  die: Die;
  /** the part is turned over (the bend is a down bend seen from the flat's top) */
  flipped: boolean;
  /** the side of the bend line (as drawn a -> b on the flat: `left` or `right`) that goes behind the punch, toward the back gauge */
  behind: 'left' | 'right';
  back_gauge_mm: number | null;
  punch_length_mm: number;
}

export interface Failure {
  bend_id: number;
  after: number[];
  obstacle: Obstacle | 'bed' | 'no_punch' | 'tool_length';
  /** the flat strip that hits (its width, mm, and the bends on either side), when the section shows it */
  strip: { length_mm: number; between: number[] } | null;
  punch: Punch | null;
  detail: Record<string, unknown>;
}

export interface SearchResult {
  status: 'found' | 'none' | 'stopped' | 'not_checked';
  steps: Step[];
  failure: Failure | null;
  tries: number;
  checks: number;
}

interface Ctx {
  bends: BendInfo[];
  byId: Map<number, BendInfo>;
  frames: Map<number, LineFrame | null>;
  sections: Map<number, Section[]>;
  relevant: Map<number, number[]>;
  setups: Map<number, BendSetup>;
  tooling: PressBrakeTooling;
  t: number;
  k: number;
  /** collision checks made so far */
  checks: number;
  /** a box or tray (bends on more than one axis, one level): its flanges, for the 3D check; null for a profile */
  flanges: Map<number, Flange> | null;
  /** per bend, the bends whose flanges its sections do not see (checked in 3D once they stand) */
  unseen: Map<number, number[]>;
}

/** The shortest sum of `segments` (any number of each) that is at least `min`, or null above `max`. */
export function toolLength(segments: number[], min: number, max: number): number | null {
  const unit = 0.5;
  const lo = Math.max(0, Math.ceil(min / unit)), hi = Math.floor(max / unit);
  if (lo > hi) return null;
  const seg = segments.map((s) => Math.round(s / unit)).filter((s) => s > 0);
  if (!seg.length) return null;
  const reach = new Uint8Array(hi + 1);
  reach[0] = 1;
  for (let v = 1; v <= hi; v++) for (const s of seg) if (s <= v && reach[v - s]) { reach[v] = 1; break; }
  for (let v = lo; v <= hi; v++) if (reach[v]) return v * unit;
  return null;
}

/** Bends standing across the ends of `b`'s line: which end, how much room before their zone, and on which side they rise. */
function endBends(ctx: Ctx, b: BendInfo): Array<{ c: BendInfo; room: number }> {
  const f = ctx.frames.get(b.id);
  if (!f) return [];
  const out: Array<{ c: BendInfo; room: number }> = [];
  const reach = Math.max(...ctx.tooling.punches.map((p) => Math.max(...p.profile_mm.map(([x]) => Math.abs(x))))) + END_REACH_MM;
  for (const c of ctx.bends) {
    const g = ctx.frames.get(c.id);
    if (c.id === b.id || !g || parallel(f, g)) continue;
    // where c's line meets b's line, along b from its start
    const den = f.u[0] * g.u[1] - f.u[1] * g.u[0];
    const dx = g.a[0] - f.a[0], dy = g.a[1] - f.a[1];
    const w = (dx * g.u[1] - dy * g.u[0]) / den;
    if (w > 0 && w < f.length) continue;
    // c must come near b's line: the nearer end of its segment within the tools' reach
    const ends: Array<[number, number]> = [[g.a[0], g.a[1]], [g.a[0] + g.u[0] * g.length, g.a[1] + g.u[1] * g.length]];
    const off = Math.min(...ends.map(([x, y]) => Math.abs((x - f.a[0]) * f.n[0] + (y - f.a[1]) * f.n[1])));
    if (off > reach) continue;
    const beyond = w <= 0 ? -w : w - f.length;
    out.push({ c, room: Math.max(0, beyond - zoneWidth(c, ctx.t, ctx.k) / 2) });
  }
  return out;
}

function stripOf(sec: Section, prim: number): Failure['strip'] {
  if (prim % 2 === 1) return null;
  const i = prim / 2;
  const between = [sec.bends[i - 1]?.id, sec.bends[i]?.id].filter((x): x is number => x !== undefined);
  return { length_mm: Number(sec.strips[i].toFixed(1)), between };
}

type Try = { ok: true; step: Omit<Step, 'bend_id'> } | { ok: false; failure: Omit<Failure, 'after' | 'bend_id'> };

function tryBend(ctx: Ctx, b: BendInfo, done: Set<number>): Try {
  const setup = ctx.setups.get(b.id)!;
  const { brake } = ctx.tooling;
  if (!setup.die) return { ok: false, failure: { obstacle: 'die', strip: null, punch: null, detail: { reason: 'no die takes this bend angle' } } };
  const die = setup.die;
  if (b.length_mm > brake.bed_length_mm) return { ok: false, failure: { obstacle: 'bed', strip: null, punch: null, detail: { length_mm: b.length_mm, bed_length_mm: brake.bed_length_mm } } };
  const included = 180 - b.angle_degrees;
  const perM = setup.force_kn_per_m ?? 0;
  const punches = ctx.tooling.punches.filter((p) => p.angle_degrees <= included + PUNCH_ANGLE_TOL_DEG && p.max_load_kn_per_m >= perM);
  if (!punches.length) return { ok: false, failure: { obstacle: 'no_punch', strip: null, punch: null, detail: { included_angle_degrees: included, force_kn_per_m: perM } } };
  // flanges already standing across the ends of the line: the tool on their side must fit between them
  let roomPunch = Infinity, roomDie = Infinity;
  const ends = { punch: [0, 0], die: [0, 0] };
  let constrainedPunch = false, constrainedDie = false;
  const f = ctx.frames.get(b.id);
  for (const { c, room } of endBends(ctx, b)) {
    if (!done.has(c.id)) continue;
    const side = c.direction === b.direction ? 'punch' : 'die';
    const g = ctx.frames.get(c.id)!;
    const den = f!.u[0] * g.u[1] - f!.u[1] * g.u[0];
    const w = ((g.a[0] - f!.a[0]) * g.u[1] - (g.a[1] - f!.a[1]) * g.u[0]) / den;
    const end = w <= 0 ? 0 : 1;
    const e = ends[side];
    e[end] = Math.max(e[end], 1);
    if (side === 'punch') { constrainedPunch = true; roomPunch = Math.min(roomPunch, room); } else { constrainedDie = true; roomDie = Math.min(roomDie, room); }
  }
  const shorter = Math.min(SHORTER_TOOL_MM, SHORTER_TOOL_FRACTION * b.length_mm);
  const minLen = b.length_mm - shorter;
  const maxPunch = constrainedPunch ? b.length_mm + (ends.punch[0] + ends.punch[1]) * roomPunch : brake.bed_length_mm;
  const maxDie = constrainedDie ? b.length_mm + (ends.die[0] + ends.die[1]) * roomDie : brake.bed_length_mm;
  if (constrainedDie && toolLength(die.segment_lengths_mm, minLen, maxDie) === null) {
    return { ok: false, failure: { obstacle: 'tool_length', strip: null, punch: null, detail: { tool: 'die', die_id: die.id, bend_length_mm: b.length_mm, room_mm: Number(maxDie.toFixed(1)) } } };
  }
  const secs = ctx.sections.get(b.id) ?? [];
  // the first punch's failure is reported (the usual tool); every punch's is in the details
  let first: Omit<Failure, 'after' | 'bend_id'> | null = null;
  const hits: Array<Record<string, unknown>> = [];
  const fail = (f: Omit<Failure, 'after' | 'bend_id'>): void => {
    first ??= f;
    hits.push({ punch_id: f.punch?.id ?? null, obstacle: f.obstacle, strip: f.strip });
  };
  for (const punch of punches) {
    const len = toolLength(punch.segment_lengths_mm, minLen, maxPunch);
    if (len === null) {
      fail({ obstacle: 'tool_length', strip: null, punch, detail: { tool: 'punch', punch_id: punch.id, bend_length_mm: b.length_mm, room_mm: Number(maxPunch.toFixed(1)) } });
      continue;
    }
    for (const mirror of [false, true]) {
      let hit: Omit<Failure, 'after' | 'bend_id'> | null = null;
      outer: for (const sec of secs) {
        for (const fr of STROKE_AT) {
          const { pieces, depth } = foldAndPlace(sec, done, b.id, fr, ctx.t, die.v_opening_mm, mirror);
          ctx.checks++;
          const h = collision(pieces, { punch, die, brake }, depth, ctx.t);
          if (h) {
            hit = { obstacle: h.obstacle, strip: stripOf(sec, h.prim), punch, detail: { stroke_fraction: Number(fr.toFixed(2)), section_at: sec.at, ...(h.prim % 2 === 1 ? { arc_of: sec.bends[(h.prim - 1) / 2].id } : {}), ...(h.other_prim !== undefined ? { other: stripOf(sec, h.other_prim) } : {}) } };
            break outer;
          }
        }
      }
      hit ??= solidCheck(ctx, b, done, die, punch, len, minLen, constrainedDie ? maxDie : null, mirror);
      if (hit) { if (!mirror) fail(hit); else hits.push({ punch_id: punch.id, mirrored: true, obstacle: hit.obstacle, strip: hit.strip }); continue; }
      const mid = secs[Math.floor(secs.length / 2)];
      let gauge: number | null = null;
      if (mid) {
        const { pieces } = foldAndPlace(mid, done, b.id, 0, ctx.t, die.v_opening_mm, mirror);
        gauge = Number((-Math.min(...pieces.map((p) => Math.min(p.a[0], p.b[0])))).toFixed(1));
      }
      // the strip before the bend (toward -s, the right of the line a -> b) goes to x < 0 (the back) unless mirrored
      return { ok: true, step: { punch, die, flipped: b.direction === 'down', behind: mirror ? 'left' : 'right', back_gauge_mm: gauge, punch_length_mm: len } };
    }
  }
  const f0 = first!;
  return { ok: false, failure: { ...f0, detail: { ...f0.detail, punch_hits: hits } } };
}

/**
 * The 3D check of a try (./solid.ts): the flanges already standing that the sections do not see,
 * on the base as the middle section places it, against the punch and the die over their set-up
 * lengths (centred on the bend's line) and the beams. Only for a box or tray; a profile's sections
 * see it whole.
 */
function solidCheck(ctx: Ctx, b: BendInfo, done: Set<number>, die: Die, punch: Punch, punchLen: number, minLen: number, maxDie: number | null, mirror: boolean): Omit<Failure, 'after' | 'bend_id'> | null {
  if (!ctx.flanges) return null;
  const standing = (ctx.unseen.get(b.id) ?? []).filter((id) => done.has(id)).map((id) => ctx.flanges!.get(id)!);
  const own = ctx.flanges.get(b.id)!;
  const secs = ctx.sections.get(b.id) ?? [];
  const mid = secs[Math.floor(secs.length / 2)];
  if (!standing.length || !mid) return null;
  const bf = own.frame;
  const baseSide: 1 | -1 = own.away[0] * bf.n[0] + own.away[1] * bf.n[1] > 0 ? -1 : 1;
  const flip: 1 | -1 = b.direction === 'up' ? 1 : -1;
  const dieLen = maxDie === null ? ctx.tooling.brake.bed_length_mm : toolLength(die.segment_lengths_mm, minLen, maxDie) ?? b.length_mm;
  const L = bf.length, c = L / 2;
  const die_: [number, number] = [c - dieLen / 2, c + dieLen / 2];
  // the punch centred on the line; one shorter than the line may also sit flush with either end of it
  const placements: Array<[number, number]> = [[c - punchLen / 2, c + punchLen / 2]];
  if (punchLen < L) placements.push([0, punchLen], [L - punchLen, L]);
  let first: Omit<Failure, 'after' | 'bend_id'> | null = null;
  for (const at of placements) {
    let hit: Omit<Failure, 'after' | 'bend_id'> | null = null;
    for (const fr of STROKE_AT) {
      const { pieces, depth } = foldAndPlace(mid, done, b.id, fr, ctx.t, die.v_opening_mm, mirror);
      const place = basePlacement(mid, pieces, b.id, baseSide, flip, mirror);
      if (!place) return null;
      ctx.checks++;
      const h = solidHit(standing, bf, place, { punch, die, brake: ctx.tooling.brake }, depth, ctx.t, { punch: at, die: die_ });
      if (h) {
        hit = { obstacle: h.obstacle, strip: { length_mm: Number(h.flange.length.toFixed(1)), between: [h.flange.bend.id] }, punch, detail: { stroke_fraction: Number(fr.toFixed(2)), solid: true, flange_of: h.flange.bend.id } };
        break;
      }
    }
    if (!hit) return null;
    first ??= hit;
  }
  return first;
}

/**
 * Searches for a sequence; with `fixedOrder` only that order is tried (to check a given sequence).
 */
export function searchSequence(bends: BendInfo[], setups: Map<number, BendSetup>, tooling: PressBrakeTooling, t: number, k: number, maxChecks = MAX_CHECKS, fixedOrder?: number[]): SearchResult {
  const frames = new Map(bends.map((b) => [b.id, lineFrame(b)] as const));
  const ctx: Ctx = { bends, byId: new Map(bends.map((b) => [b.id, b])), frames, sections: new Map(), relevant: new Map(), setups, tooling, t, k, checks: 0, flanges: singleLevelFlanges(bends, frames, t, k), unseen: new Map() };
  for (const b of bends) {
    const secs: Section[] = [];
    const seen = new Set<string>();
    for (const at of SECTION_AT) {
      const s = sectionAcross(b, at, bends, frames, t, k);
      if (!s) return { status: 'not_checked', steps: [], failure: null, tries: 0, checks: 0 };
      const key = s.bends.map((x) => x.id).join(',') + '|' + s.strips.map((x) => x.toFixed(1)).join(',');
      if (!seen.has(key)) { seen.add(key); secs.push(s); }
    }
    ctx.sections.set(b.id, secs);
    const rel = new Set<number>();
    for (const s of secs) for (const x of s.bends) if (x.id !== b.id) rel.add(x.id);
    for (const { c } of endBends(ctx, b)) rel.add(c.id);
    if (ctx.flanges) {
      const seen = new Set(secs.flatMap((x) => x.bends.map((y) => y.id)));
      const unseen = bends.filter((c) => !seen.has(c.id)).map((c) => c.id);
      ctx.unseen.set(b.id, unseen);
      for (const id of unseen) rel.add(id);
    }
    ctx.relevant.set(b.id, [...rel].sort((x, y) => x - y));
  }
  // outer bends first: the flat distance from the bend to the nearer end of its middle section
  const outerKey = (b: BendInfo): number => {
    const secs = ctx.sections.get(b.id)!;
    const sec = secs[Math.floor(secs.length / 2)];
    const i = sec.bends.findIndex((x) => x.id === b.id);
    let before = 0, after = 0;
    for (let j = 0; j <= i; j++) before += sec.strips[j] + (j < i ? sec.bends[j].zone : 0);
    for (let j = i + 1; j <= sec.bends.length; j++) after += sec.strips[j] + (j < sec.bends.length ? sec.bends[j].zone : 0);
    return Math.min(before, after);
  };
  const order = [...bends].sort((x, y) => outerKey(x) - outerKey(y) || x.id - y.id);
  const tries = new Map<string, Try>();
  const dead = new Set<string>();
  const done = new Set<number>();
  const steps: Step[] = [];
  let count = 0, stopped = false;
  let worst: Failure | null = null;
  const dfs = (): boolean => {
    if (done.size === bends.length) return true;
    const key = [...done].sort((x, y) => x - y).join(',');
    if (dead.has(key)) return false;
    const next = fixedOrder ? order.filter((b) => b.id === fixedOrder[done.size]) : order;
    for (const b of next) {
      if (done.has(b.id)) continue;
      const rel = ctx.relevant.get(b.id)!.filter((id) => done.has(id)).join(',');
      const tk = `${b.id}:${rel}`;
      let r = tries.get(tk);
      if (!r) {
        if (ctx.checks >= maxChecks) { stopped = true; return false; }
        count++;
        r = tryBend(ctx, b, done);
        tries.set(tk, r);
      }
      if (!r.ok) {
        // the report names the failure reached after the most bends (the first such, in search order)
        if (!worst || done.size > worst.after.length) worst = { ...r.failure, bend_id: b.id, after: steps.map((s) => s.bend_id) };
        continue;
      }
      done.add(b.id); steps.push({ bend_id: b.id, ...r.step });
      if (dfs()) return true;
      done.delete(b.id); steps.pop();
      if (stopped) return false;
    }
    dead.add(key);
    return false;
  };
  const found = dfs();
  return { status: found ? 'found' : stopped ? 'stopped' : 'none', steps: found ? steps : [], failure: found ? null : worst, tries: count, checks: ctx.checks };
}
