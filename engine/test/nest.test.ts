// The nester on fixtures with known answers (docs/nesting.md): rectangles that tile a sheet exactly,
// L-shapes that nest in pairs, rings with small parts in their holes, a part no sheet takes, grain
// (fixed rotations), determinism. Every nest is checked independently: each placed outline lies
// inside the edge margin and at least the spacing from every other, by exact polygon distances.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nest, rotateOutline, outlineArea, type NestRequest, type NestResult, type Outline, type Point } from '../src/nest/index.ts';

const rect = (w: number, h: number): Outline => ({ outer: [[0, 0], [w, 0], [w, h], [0, h]], holes: [] });
/** An L: a w x h box less a (w - tab) x (h - leg) notch at its top right. */
const ell = (w: number, h: number, tab: number, leg: number): Outline => ({ outer: [[0, 0], [w, 0], [w, leg], [tab, leg], [tab, h], [0, h]], holes: [] });
const ring = (outer: number, inner: number): Outline => {
  const o = (outer - inner) / 2;
  return { outer: [[0, 0], [outer, 0], [outer, outer], [0, outer]], holes: [[[o, o], [o, o + inner], [o + inner, o + inner], [o + inner, o]]] };
};

function placed(req: NestRequest, res: NestResult): Array<{ id: string; sheet: number; loops: Point[][] }> {
  const byId = new Map(req.items.map((i) => [i.id, i.outline]));
  return res.sheets.flatMap((s, sheet) => s.placements.map((p) => {
    const o = rotateOutline(byId.get(p.id)!, p.rotation_deg);
    const t = (l: readonly Point[]): Point[] => l.map(([x, y]) => [x + p.x_mm, y + p.y_mm] as Point);
    return { id: p.id, sheet, loops: [t(o.outer), ...o.holes.map(t)] };
  }));
}

function segDist(a: Point, b: Point, c: Point, d: Point): number {
  const pd = (p: Point, q: Point, r: Point): number => {
    const vx = r[0] - q[0], vy = r[1] - q[1];
    const l2 = vx * vx + vy * vy;
    const t = l2 ? Math.max(0, Math.min(1, ((p[0] - q[0]) * vx + (p[1] - q[1]) * vy) / l2)) : 0;
    return Math.hypot(p[0] - q[0] - t * vx, p[1] - q[1] - t * vy);
  };
  const o = (p: Point, q: Point, r: Point): number => Math.sign((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]));
  if (o(a, b, c) * o(a, b, d) < 0 && o(c, d, a) * o(c, d, b) < 0) return 0;
  return Math.min(pd(a, c, d), pd(b, c, d), pd(c, a, b), pd(d, a, b));
}
const inside = (p: Point, loops: Point[][]): boolean => {
  let c = false;
  for (const l of loops) for (let i = 0, j = l.length - 1; i < l.length; j = i++) {
    if ((l[i][1] > p[1]) !== (l[j][1] > p[1]) && p[0] < ((l[j][0] - l[i][0]) * (p[1] - l[i][1])) / (l[j][1] - l[i][1]) + l[i][0]) c = !c;
  }
  return c;
};

/** Asserts the nest is valid: inside the margins, every pair at least the spacing apart. */
function assertValid(req: NestRequest, res: NestResult): void {
  const ps = placed(req, res);
  const tol = 1e-6;
  for (const p of ps) for (const [x, y] of p.loops[0]) {
    assert.ok(x >= req.margin_mm - tol && y >= req.margin_mm - tol && x <= res.sheet.length_mm - req.margin_mm + tol && y <= res.sheet.width_mm - req.margin_mm + tol, `${p.id} leaves the margin at (${x}, ${y})`);
  }
  for (let i = 0; i < ps.length; i++) for (let j = i + 1; j < ps.length; j++) {
    const a = ps[i], b = ps[j];
    if (a.sheet !== b.sheet) continue;
    let d = Infinity;
    for (const la of a.loops) for (const lb of b.loops) for (let m = 0; m < la.length; m++) for (let n = 0; n < lb.length; n++) {
      d = Math.min(d, segDist(la[m], la[(m + 1) % la.length], lb[n], lb[(n + 1) % lb.length]));
    }
    assert.ok(d >= req.spacing_mm - tol, `pieces ${i} and ${j} are ${d} mm apart (spacing ${req.spacing_mm})`);
    assert.ok(!inside(a.loops[0][0], b.loops) && !inside(b.loops[0][0], a.loops), `pieces ${i} and ${j} overlap`);
  }
}

const used = (res: NestResult): number => res.sheets.slice(0, -1).length * res.sheet.length_mm * res.sheet.width_mm + (res.sheets.at(-1) ? res.sheets.at(-1)!.used_length_mm * res.sheets.at(-1)!.used_width_mm : 0);

test('rectangles that tile the sheet exactly fill it: every cell but the spacing', () => {
  // 98 x 48 parts, 2 mm apart, 1 mm from the edge: 10 x 10 of them make the 1000 x 500 sheet
  const req: NestRequest = { items: [{ id: 'r', outline: rect(98, 48), count: 100 }], sheet: { length_mm: 1000, width_mm: 500 }, spacing_mm: 2, margin_mm: 1 };
  const res = nest(req);
  assert.equal(res.findings.length, 0);
  assert.equal(res.sheets.length, 1);
  assert.equal(res.sheets[0].placements.length, 100);
  assertValid(req, res);
  // one more needs a second sheet
  const more = nest({ ...req, items: [{ id: 'r', outline: rect(98, 48), count: 101 }] });
  assert.equal(more.sheets.length, 2);
  assert.equal(more.sheets[1].placements.length, 1);
});

test('L-shapes nest in pairs: the nest uses far less sheet than their boxes', () => {
  // two of these make a 150 x 60 rectangle: 100 % of its area, against 75 % of each box
  const L = ell(100, 60, 50, 30);
  const req: NestRequest = { items: [{ id: 'L', outline: L, count: 40 }], sheet: { length_mm: 2000, width_mm: 1000 }, spacing_mm: 2, margin_mm: 5 };
  const res = nest(req);
  assertValid(req, res);
  assert.equal(res.sheets.length, 1);
  const util = res.parts_area_mm2 / used(res);
  const boxUtil = outlineArea(L) / ((100 + 2) * (60 + 2));
  assert.ok(util > boxUtil + 0.1, `nest utilisation ${util.toFixed(3)} vs boxes ${boxUtil.toFixed(3)}`);
  // some piece is turned half a turn to interlock with another
  assert.ok(res.sheets[0].placements.some((p) => p.rotation_deg === 180) && res.sheets[0].placements.some((p) => p.rotation_deg === 0));
});

test('small parts are placed in the holes of rings', () => {
  // two 200 mm rings per 420 x 215 sheet and no room beside them; their 160 mm holes take 4 x 4
  // squares of 30 mm each
  const req: NestRequest = {
    items: [{ id: 'ring', outline: ring(200, 160), count: 4 }, { id: 'sq', outline: rect(30, 30), count: 24 }],
    sheet: { length_mm: 420, width_mm: 215 }, spacing_mm: 2, margin_mm: 5,
  };
  const res = nest(req);
  assertValid(req, res);
  assert.equal(res.sheets.length, 2);
  const ps = placed(req, res);
  const holes = ps.filter((p) => p.id === 'ring').map((p) => ({ sheet: p.sheet, hole: p.loops[1] }));
  const inHoles = ps.filter((p) => p.id === 'sq' && holes.some((h) => h.sheet === p.sheet && p.loops[0].every((pt) => inside(pt, [h.hole]))));
  assert.equal(inHoles.length, 24, 'every square sits in a ring\'s hole');
});

test('a part larger than every stock sheet is a finding; the rest is nested', () => {
  const req: NestRequest = { items: [{ id: 'big', outline: rect(1200, 100), count: 2 }, { id: 'ok', outline: rect(100, 100), count: 3 }], sheet: { length_mm: 1117.6, width_mm: 762 }, spacing_mm: 6, margin_mm: 10 };
  const res = nest(req);
  assert.deepEqual(res.findings.map((f) => [f.code, f.part_id]), [['part_larger_than_sheet', 'big']]);
  assert.match(res.findings[0].message, /1200 x 100 mm/);
  assert.equal(res.sheets.flatMap((s) => s.placements).length, 3);
  assertValid(req, res);
});

test('grain: a part may be held to the rotations the configuration allows', () => {
  const item = { id: 'strip', outline: rect(400, 100), count: 1 };
  const sheet = { length_mm: 500, width_mm: 300 };
  assert.equal(nest({ items: [{ ...item, rotations: [90, 270] }], sheet, spacing_mm: 2, margin_mm: 5 }).findings.length, 1);
  const along = nest({ items: [{ ...item, rotations: [0] }], sheet, spacing_mm: 2, margin_mm: 5 });
  assert.equal(along.findings.length, 0);
  assert.equal(along.sheets[0].placements[0].rotation_deg, 0);
});

test('the same request gives the same nest; a time budget stops with the best so far', () => {
  const req: NestRequest = { items: [{ id: 'L', outline: ell(100, 60, 50, 30), count: 15 }, { id: 'r', outline: rect(37, 23), count: 20 }, { id: 'o', outline: ring(80, 50), count: 5 }], sheet: { length_mm: 1000, width_mm: 500 }, spacing_mm: 3, margin_mm: 5, max_evaluations: 8 };
  const a = nest(req), b = nest(req);
  assert.deepEqual(a, b);
  assertValid(req, a);
  const quick = nest({ ...req, max_evaluations: 1000, time_budget_ms: 0 });
  assert.equal(quick.stopped_by, 'time');
  assert.equal(quick.evaluations, 1);
  assert.equal(quick.sheets.flatMap((s) => s.placements).length, 40);
});
