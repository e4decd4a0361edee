// occt-import-js loaded once per thread: the module-level promise is per realm, and every worker
// thread is its own realm, so each thread pays the WASM init (~50 ms) exactly once. Compiling its
// 7.6 MB of WASM is the expensive part of a cold start: compileOcct() starts it early (the CLI calls it
// at process start, while the rest of the program loads) and the pool compiles once in its own thread
// and posts the compiled module to every worker (useOcctModule), so workers share one compiled copy.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { loadOcctFactory, type OcctFactory } from './occt-glue.ts';

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

let modulePromise: Promise<WebAssembly.Module> | null = null;

/** occt-import-js's WASM, compiled once per thread (or handed over by useOcctModule); starts the compile if nothing has. */
export function compileOcct(): Promise<WebAssembly.Module> {
  if (!modulePromise) {
    const wasm = createRequire(import.meta.url).resolve('occt-import-js/dist/occt-import-js.wasm');
    const compiling = readFile(wasm).then((bytes) => WebAssembly.compile(bytes));
    modulePromise = compiling;
    compiling.catch(() => { if (modulePromise === compiling) modulePromise = null; });
  }
  return modulePromise;
}

/** A module compiled in another thread (the pool's): this thread instantiates it instead of compiling its own. */
export function useOcctModule(module: WebAssembly.Module): void {
  if (!modulePromise) modulePromise = Promise.resolve(module);
}

/**
 * Lets go of this thread's compiled module when no OCCT instance of this thread uses it (the pool's
 * thread, once its workers are retired), so the code V8 compiled for it, optimized code included, can
 * be freed; the next compileOcct() compiles again. True if it was let go.
 */
export function releaseOcctModule(): boolean {
  if (instances.fast || instances.stock || !modulePromise) return false;
  modulePromise = null;
  return true;
}

/** The glue each thread evaluates once: occt-import-js's own (`require`) or the faster equivalent
 * (see occt-glue.ts; the default, and the stock glue whenever the installed one is not 0.0.23's). */
export type OcctGlue = 'fast' | 'stock';
const factories: Partial<Record<OcctGlue, OcctFactory<Occt>>> = {};
const instances: Partial<Record<OcctGlue, Promise<Occt>>> = {};

function factoryOf(glue: OcctGlue): OcctFactory<Occt> {
  return factories[glue] ??= glue === 'fast'
    ? loadOcctFactory<Occt>().factory
    : createRequire(import.meta.url)('occt-import-js') as OcctFactory<Occt>;
}

/** The thread's OCCT instance; its own console output is swallowed (the CLI owns stdout). 'stock'
 * (a separate instance on the unpatched glue) is for measuring the patch against. */
export function loadOcct(glue: OcctGlue = 'fast'): Promise<Occt> {
  let occt = instances[glue];
  if (!occt) {
    const factory = factoryOf(glue);
    const loading = compileOcct().then((module) => factory({
      print: () => {},
      printErr: () => {},
      // synchronous, so a failure rejects the factory's promise (Emscripten catches what this throws)
      instantiateWasm: (imports, receive) => {
        const instance = new WebAssembly.Instance(module, imports);
        receive(instance, module);
        return instance.exports;
      },
    }));
    instances[glue] = occt = loading;
    loading.catch(() => { if (instances[glue] === loading) delete instances[glue]; });
  }
  return occt;
}

/** Drops the thread's OCCT instances (after a WASM abort its state cannot be trusted); the next
 * import loads a fresh one. */
export function resetOcct(): void { delete instances.fast; delete instances.stock; }
