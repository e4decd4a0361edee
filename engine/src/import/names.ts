// The name each body goes by: the body's own name in the STEP file (MANIFOLD_SOLID_BREP('MainSheet',..)
// inside a multi-body product), else its product's name, never a made-up "Solid n" while the file has one.
// occt-import-js names a mesh after its product only when the product is one body; for several bodies
// it leaves the meshes unnamed under a node carrying the product name, and loses body names.
import { isAscii } from 'node:buffer';
import type { OcctMesh, OcctResult } from './occt.ts';
import type { BodyMesh } from './sew.ts';
import { decodeStepName } from './step-string.ts';

/** Names a STEP writer puts when the CAD model had none: not worth showing as a part name. */
const PLACEHOLDER_NAME = /^(open cascade step translator\b.*|none|unnamed|\$|)$/i;
/** Representation items that are one body each. */
const BODY_ITEM = /^(MANIFOLD_SOLID_BREP|BREP_WITH_VOIDS|FACETED_BREP|SHELL_BASED_SURFACE_MODEL)$/;

const usable = (name: unknown): name is string => typeof name === 'string' && !PLACEHOLDER_NAME.test(name.trim());

interface Entity { type: string; args: string }

/** Simple entities of the DATA section (complex ones, written in brackets, are not needed here). */
function entities(text: string): Map<number, Entity> {
  const out = new Map<number, Entity>();
  for (const m of text.matchAll(/#(\d+)\s*=\s*([A-Z_][A-Z0-9_]*)\s*\(([\s\S]*?)\)\s*;/g)) out.set(Number(m[1]), { type: m[2].toUpperCase(), args: m[3] });
  return out;
}

const refs = (s: string): number[] => [...s.matchAll(/#(\d+)/g)].map((m) => Number(m[1]));
const firstString = (s: string): string | null => { const m = /^\s*'((?:[^']|'')*)'/.exec(s); return m ? decodeStepName(m[1]) : null; };

/** Whether the file has anything a name can carry beyond ASCII: a raw 8-bit byte or an escape. */
const hasWideText = (bytes: Uint8Array): boolean => !isAscii(bytes) || Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes('\\');

/**
 * The readable name of every product, under each form occt-import-js may give it: the raw bytes read
 * as Latin-1 (8-bit names), the escapes decoded (it does \\X\\ and UTF-8), or the product's id (which it
 * falls back to when the name is not ASCII and differs from the id).
 */
function productNames(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(/#\d+\s*=\s*PRODUCT\s*\(\s*'((?:[^']|'')*)'\s*,\s*'((?:[^']|'')*)'/g)) {
    const [id, name] = [m[1], m[2]];
    const shown = usable(decodeStepName(name)) ? decodeStepName(name) : decodeStepName(id);
    if (!usable(shown)) continue;
    for (const raw of [name, id]) for (const form of [raw, raw.replace(/''/g, "'"), decodeStepName(raw)]) if (!out.has(form)) out.set(form, shown);
  }
  return out;
}

/** Product name -> the names of its bodies, in the order its shape representation lists them. */
function productBodyNames(text: string): Map<string, string[]> {
  const all = entities(text);
  const byType = (re: RegExp) => [...all].filter(([, e]) => re.test(e.type));
  const referring = new Map<number, number[]>(); // entity -> entities that refer to it
  for (const [id, e] of all) for (const r of refs(e.args)) { let l = referring.get(r); if (!l) referring.set(r, (l = [])); l.push(id); }
  const up = (id: number, type: RegExp) => (referring.get(id) ?? []).filter((r) => type.test(all.get(r)!.type));
  const out = new Map<string, string[]>();
  for (const [pid, p] of byType(/^PRODUCT$/)) {
    const id = firstString(p.args);
    if (id === null) continue;
    const name = /^\s*'(?:[^']|'')*'\s*,\s*'((?:[^']|'')*)'/.exec(p.args)?.[1];
    const keys = [id, ...(name !== undefined ? [decodeStepName(name)] : [])];
    const reps = new Set<number>();
    for (const pdf of up(pid, /^PRODUCT_DEFINITION_FORMATION/)) {
      for (const pd of up(pdf, /^PRODUCT_DEFINITION$/)) {
        for (const pds of up(pd, /^PRODUCT_DEFINITION_SHAPE$/)) {
          for (const sdr of up(pds, /^SHAPE_DEFINITION_REPRESENTATION$/)) for (const r of refs(all.get(sdr)!.args).slice(1)) reps.add(r);
        }
      }
    }
    // the product's representation and those tied to it one-to-one (not assembly placements, which are complex entities)
    for (const r of [...reps]) {
      for (const rel of up(r, /^SHAPE_REPRESENTATION_RELATIONSHIP$/)) for (const o of refs(all.get(rel)!.args)) reps.add(o);
    }
    const bodies: string[] = [];
    for (const r of reps) {
      const rep = all.get(r);
      if (!rep) continue;
      for (const item of refs(rep.args)) {
        const e = all.get(item);
        if (e && BODY_ITEM.test(e.type)) bodies.push(firstString(e.args) ?? '');
      }
    }
    if (bodies.length > 0) for (const k of keys) if (!out.has(k)) out.set(k, bodies);
  }
  return out;
}

/** The name of every mesh occt-import-js returned (same order). */
export function meshNames(result: OcctResult, bytes: Uint8Array): string[] {
  const meshes = result.meshes ?? [];
  const wide = hasWideText(bytes);
  let text: string | null = null;
  const fileText = () => (text ??= new TextDecoder('latin1').decode(bytes));
  let products: Map<string, string> | null = null;
  // names as the file means them (occt-import-js shows raw 8-bit names as Latin-1 and may give an id instead)
  const readable = (name: string): string => (wide ? (products ??= productNames(fileText())).get(name) ?? decodeStepName(name) : name);
  const names: string[] = meshes.map((m) => (usable(m.name) ? readable(m.name!.trim()).trim() : ''));
  let bodyNames: Map<string, string[]> | null = null;
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const n = node as { name?: unknown; meshes?: unknown; children?: unknown };
    const own = Array.isArray(n.meshes) ? n.meshes.filter((i): i is number => Number.isInteger(i) && i >= 0 && i < meshes.length) : [];
    const unnamed = own.filter((i) => names[i] === '');
    if (unnamed.length > 0 && usable(n.name)) {
      const product = readable(n.name.trim()).trim();
      bodyNames ??= productBodyNames(fileText());
      const bodies = bodyNames.get(product);
      // body names only where they can be told apart one-to-one; the product's name otherwise
      const byBody = bodies && bodies.length === own.length && bodies.every(usable);
      for (const i of unnamed) names[i] = byBody ? bodies[own.indexOf(i)].trim() : product;
    }
    if (Array.isArray(n.children)) for (const c of n.children) visit(c);
  };
  visit((result as { root?: unknown }).root);
  return names.map((n, i) => n || `Solid ${i + 1}`);
}

function boxOf(p: ArrayLike<number>): { min: number[]; max: number[] } {
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i + 2 < p.length; i += 3) for (let k = 0; k < 3; k++) { min[k] = Math.min(min[k], p[i + k]); max[k] = Math.max(max[k], p[i + k]); }
  return { min, max };
}

/** A mesh's box must lie within a body's box grown by this share of the body's diagonal to come from it. */
const BOX_SLACK = 1e-3;

/**
 * Names of the exact kernel's bodies (which carry none) from the occt-import-js meshes that lie in
 * them: a sewn body is named after the surfaces it was sewn from.
 */
export function bodyNames(bodies: BodyMesh[], meshes: OcctMesh[], names: string[]): string[] {
  const boxes = bodies.map((b) => boxOf(b.positions));
  const size = (b: { min: number[]; max: number[] }) => Math.hypot(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2]);
  const votes = bodies.map(() => new Map<string, number>());
  meshes.forEach((m, i) => {
    const box = boxOf(m.attributes?.position?.array ?? []);
    if (!Number.isFinite(box.min[0])) return;
    let best = -1, bestSize = Infinity;
    boxes.forEach((b, j) => {
      const slack = BOX_SLACK * size(b);
      const inside = [0, 1, 2].every((k) => box.min[k] >= b.min[k] - slack && box.max[k] <= b.max[k] + slack);
      if (inside && size(b) < bestSize) { best = j; bestSize = size(b); }
    });
    if (best >= 0) votes[best].set(names[i], (votes[best].get(names[i]) ?? 0) + (m.index?.array?.length ?? 0));
  });
  return votes.map((v, j) => [...v].sort((a, b) => b[1] - a[1])[0]?.[0] ?? `Solid ${j + 1}`);
}
