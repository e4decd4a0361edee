// The configuration object (docs/api.md "The configuration object"): strict shape validation. Malformed types, unknown fields and values
// outside an enum are errors with `param` (the JSON path); well-formed references to things that do
// not exist (an unknown hole id or catalog id) are DFM findings, decided later by dfm().
import { EngineError } from '../contract.ts';
import { ACCEPTABLE_RISKS, COUNTERSINK_ANGLES } from './rules.ts';

export type Side = 'top' | 'bottom';
export interface Selections { material_id?: string; tube_profile_id?: string; powder_coat_color_id?: string; finish_id?: string }
export interface TapSelection { hole_id: number; tap_id: string }
export interface StudSelection { hole_id: number; stud_id: string; side: Side }
export interface NutSelection { hole_id: number; nut_id: string; side: Side }
export interface StandoffSelection { hole_id: number; standoff_id: string; side: Side }
export interface CountersinkSelection { hole_id: number; outer_diameter_mm: number; angle: 82 | 90; side: Side }
export interface PartConfiguration extends Selections {
  part_id: string;
  taps: TapSelection[];
  studs: StudSelection[];
  nuts: NutSelection[];
  standoffs: StandoffSelection[];
  countersinks: CountersinkSelection[];
  /**
   * true: the part is not made or priced here (bought-in hardware, or supplied by the customer);
   * false: it is made even when it was taken for bought-in hardware; absent: left out exactly when
   * the design took it for bought-in hardware (Part.bought_in).
   */
  left_out?: boolean;
}
export type WeldMethod = 'auto' | 'mig' | 'tig';
export interface WeldOperation {
  type: 'weld';
  method: WeldMethod;
  weld_length_mm: number;
  part_instance_ids: string[];
  weld_finish: 'none' | 'rough' | 'fine';
  joint_access: 'open' | 'tight' | 'blind';
}
/**
 * A configuration as a request carries it (docs/api.md "The configuration object"): JSON that
 * parseConfiguration checks, naming the field it refuses, and completes into a Configuration (which
 * it takes back as it is: a report's configuration configures again).
 */
export type ConfigurationInput = Readonly<Record<string, unknown>> | Configuration;

export interface Configuration {
  defaults: Selections;
  parts: PartConfiguration[];
  assembly_operations: WeldOperation[];
  accepted_risks: string[];
}

/** invalid_configuration with the JSON path of the offending value. */
export class InvalidConfigurationError extends EngineError {
  readonly param: string;
  constructor(param: string, message: string) {
    super('invalid_configuration', message);
    this.param = param;
  }
  override toJSON(): { code: 'invalid_configuration'; message: string; param: string } {
    return { code: 'invalid_configuration', message: this.message, param: this.param };
  }
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const fail = (param: string, message: string): never => { throw new InvalidConfigurationError(param, message); };

function object(v: unknown, path: string, allowed: readonly string[]): Obj {
  if (!isObj(v)) fail(path, `${path} must be an object`);
  const o = v as Obj;
  for (const k of Object.keys(o)) if (!allowed.includes(k)) fail(`${path}.${k}`, `unknown field '${k}' in ${path}; allowed: ${allowed.join(', ')}`);
  return o;
}
function array(v: unknown, path: string, maxItems = 10000): unknown[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) fail(path, `${path} must be an array`);
  const a = v as unknown[];
  if (a.length > maxItems) fail(path, `${path} has ${a.length} entries; at most ${maxItems}`);
  return a;
}
function optId(o: Obj, key: string, path: string): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || v.length === 0 || v.length > 200) fail(`${path}.${key}`, `${path}.${key} must be a non-empty string id`);
  return v as string;
}
function reqId(o: Obj, key: string, path: string): string {
  const v = optId(o, key, path);
  if (v === undefined) fail(`${path}.${key}`, `${path}.${key} is required`);
  return v as string;
}
function holeId(o: Obj, path: string): number {
  const v = o.hole_id;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) fail(`${path}.hole_id`, `${path}.hole_id must be a non-negative integer hole id`);
  return v as number;
}
function oneOf<T extends string | number>(o: Obj, key: string, path: string, values: readonly T[], dflt?: T): T {
  const v = o[key];
  if (v === undefined && dflt !== undefined) return dflt;
  if (!values.includes(v as T)) fail(`${path}.${key}`, `${path}.${key} must be one of ${values.join(', ')}`);
  return v as T;
}
function positive(o: Obj, key: string, path: string, max: number): number {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0 || v > max) fail(`${path}.${key}`, `${path}.${key} must be a number > 0 and <= ${max}`);
  return v as number;
}

const SELECTION_KEYS = ['material_id', 'tube_profile_id', 'powder_coat_color_id', 'finish_id'] as const;
const SIDES: readonly Side[] = ['top', 'bottom'];
/** Largest plausible countersink / weld dimension, mm: rejects garbage, not designs. */
const MAX_COUNTERSINK_MM = 200;
const MAX_WELD_LENGTH_MM = 1e6;

function selections(o: Obj, path: string): Selections {
  const s: Selections = {};
  for (const k of SELECTION_KEYS) { const v = optId(o, k, path); if (v !== undefined) s[k] = v; }
  return s;
}

/** Validates and normalises a configuration (missing lists become []). `param` paths start at "configuration". */
export function parseConfiguration(raw: unknown, root = 'configuration'): Configuration {
  if (raw === undefined || raw === null) return { defaults: {}, parts: [], assembly_operations: [], accepted_risks: [] };
  const c = object(raw, root, ['defaults', 'parts', 'assembly_operations', 'accepted_risks']);
  const defaults = c.defaults === undefined ? {} : selections(object(c.defaults, `${root}.defaults`, SELECTION_KEYS), `${root}.defaults`);
  const seen = new Set<string>();
  const parts = array(c.parts, `${root}.parts`).map((pv, i): PartConfiguration => {
    const path = `${root}.parts[${i}]`;
    const p = object(pv, path, ['part_id', ...SELECTION_KEYS, 'taps', 'studs', 'nuts', 'standoffs', 'countersinks', 'left_out']);
    const part_id = reqId(p, 'part_id', path);
    if (seen.has(part_id)) fail(`${path}.part_id`, `part ${part_id} is configured twice`);
    seen.add(part_id);
    if (p.left_out !== undefined && p.left_out !== null && typeof p.left_out !== 'boolean') fail(`${path}.left_out`, `${path}.left_out must be true or false`);
    return {
      part_id,
      ...(typeof p.left_out === 'boolean' ? { left_out: p.left_out } : {}),
      ...selections(p, path),
      taps: array(p.taps, `${path}.taps`).map((t, j) => {
        const q = `${path}.taps[${j}]`; const o = object(t, q, ['hole_id', 'tap_id']);
        return { hole_id: holeId(o, q), tap_id: reqId(o, 'tap_id', q) };
      }),
      studs: array(p.studs, `${path}.studs`).map((t, j) => {
        const q = `${path}.studs[${j}]`; const o = object(t, q, ['hole_id', 'stud_id', 'side']);
        return { hole_id: holeId(o, q), stud_id: reqId(o, 'stud_id', q), side: oneOf(o, 'side', q, SIDES, 'top') };
      }),
      nuts: array(p.nuts, `${path}.nuts`).map((t, j) => {
        const q = `${path}.nuts[${j}]`; const o = object(t, q, ['hole_id', 'nut_id', 'side']);
        return { hole_id: holeId(o, q), nut_id: reqId(o, 'nut_id', q), side: oneOf(o, 'side', q, SIDES, 'top') };
      }),
      standoffs: array(p.standoffs, `${path}.standoffs`).map((t, j) => {
        const q = `${path}.standoffs[${j}]`; const o = object(t, q, ['hole_id', 'standoff_id', 'side']);
        return { hole_id: holeId(o, q), standoff_id: reqId(o, 'standoff_id', q), side: oneOf(o, 'side', q, SIDES, 'top') };
      }),
      countersinks: array(p.countersinks, `${path}.countersinks`).map((t, j) => {
        const q = `${path}.countersinks[${j}]`; const o = object(t, q, ['hole_id', 'outer_diameter_mm', 'angle', 'side']);
        return {
          hole_id: holeId(o, q), outer_diameter_mm: positive(o, 'outer_diameter_mm', q, MAX_COUNTERSINK_MM),
          angle: oneOf(o, 'angle', q, COUNTERSINK_ANGLES), side: oneOf(o, 'side', q, SIDES, 'top'),
        };
      }),
    };
  });
  const assembly_operations = array(c.assembly_operations, `${root}.assembly_operations`).map((w, i): WeldOperation => {
    const q = `${root}.assembly_operations[${i}]`;
    const o = object(w, q, ['type', 'method', 'weld_length_mm', 'part_instance_ids', 'weld_finish', 'joint_access']);
    oneOf(o, 'type', q, ['weld'] as const);
    const ids = array(o.part_instance_ids, `${q}.part_instance_ids`).map((v, j) => {
      if (typeof v !== 'string' || v.length === 0) fail(`${q}.part_instance_ids[${j}]`, 'part instance ids are non-empty strings');
      return v as string;
    });
    return {
      type: 'weld',
      method: oneOf(o, 'method', q, ['auto', 'mig', 'tig'] as const, 'auto'),
      weld_length_mm: positive(o, 'weld_length_mm', q, MAX_WELD_LENGTH_MM),
      part_instance_ids: ids,
      weld_finish: oneOf(o, 'weld_finish', q, ['none', 'rough', 'fine'] as const, 'none'),
      joint_access: oneOf(o, 'joint_access', q, ['open', 'tight', 'blind'] as const, 'open'),
    };
  });
  // Only the two acceptable risks: existing clients validate accepted_risks as an enum of exactly
  // these values (docs/api.md "Accepted risks"), so any other value, even another finding's code, is
  // refused here rather than silently ignored. Other warnings need no acceptance.
  const accepted_risks = array(c.accepted_risks, `${root}.accepted_risks`).map((v, i) => {
    if (!(ACCEPTABLE_RISKS as readonly unknown[]).includes(v)) fail(`${root}.accepted_risks[${i}]`, `accepted_risks[${i}] must be one of ${ACCEPTABLE_RISKS.join(', ')}`);
    return v as string;
  });
  return { defaults, parts, assembly_operations, accepted_risks: [...new Set(accepted_risks)] };
}

/** The effective selections of one part: part override > defaults > unset. */
export function effectiveSelections(config: Configuration, partId: string): { part: PartConfiguration | null; selections: Selections } {
  const part = config.parts.find((p) => p.part_id === partId) ?? null;
  const s: Selections = {};
  for (const k of SELECTION_KEYS) {
    const v = part?.[k] ?? config.defaults[k];
    if (v !== undefined) s[k] = v;
  }
  return { part, selections: s };
}
