// occt-import-js loaded once per thread: the module-level promise is per realm, and every worker
// thread is its own realm, so each thread pays the WASM init (~50 ms) exactly once.
import { createRequire } from 'node:module';

export interface OcctMesh {
  name?: string;
  attributes: { position: { array: ArrayLike<number> } };
  index: { array: ArrayLike<number> };
  brep_faces: Array<{ first: number; last: number }>;
}
export interface OcctResult { success: boolean; meshes: OcctMesh[]; root?: unknown }
export interface OcctParams {
  linearUnit?: 'millimeter' | 'centimeter' | 'meter' | 'inch' | 'foot';
  linearDeflectionType?: 'bounding_box_ratio' | 'absolute_value';
  linearDeflection?: number;
  angularDeflection?: number;
}
export interface Occt { ReadStepFile(content: Uint8Array, params: OcctParams | null): OcctResult }

type OcctFactory = (module?: { print?: (s: string) => void; printErr?: (s: string) => void }) => Promise<Occt>;

let occtPromise: Promise<Occt> | null = null;

/** The thread's OCCT instance; its own console output is swallowed (the CLI owns stdout). */
export function loadOcct(): Promise<Occt> {
  if (!occtPromise) {
    const require = createRequire(import.meta.url);
    const factory = require('occt-import-js') as OcctFactory;
    occtPromise = factory({ print: () => {}, printErr: () => {} });
    occtPromise.catch(() => { occtPromise = null; });
  }
  return occtPromise;
}

/** Drops the thread's OCCT instance (after a WASM abort its state cannot be trusted); the next
 * import loads a fresh one. */
export function resetOcct(): void { occtPromise = null; }
