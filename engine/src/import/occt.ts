// occt-import-js loaded once per thread: the module-level promise is per realm, and every worker
// thread is its own realm, so each thread pays the WASM init (~50 ms) exactly once. Compiling its
// 7.6 MB of WASM is the expensive part of a cold start: compileOcct() starts it early (the CLI calls it
// at process start, while the rest of the program loads) and the pool compiles once in its own thread
// and posts the compiled module to every worker (useOcctModule), so workers share one compiled copy.
import { readFile } from 'node:fs/promises';
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

type OcctFactory = (module?: {
  print?: (s: string) => void;
  printErr?: (s: string) => void;
  /** Emscripten's hook: instantiate the WASM ourselves (from a module compiled beforehand) */
  instantiateWasm?: (imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => WebAssembly.Exports;
}) => Promise<Occt>;

let occtPromise: Promise<Occt> | null = null;
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

/** The thread's OCCT instance; its own console output is swallowed (the CLI owns stdout). */
export function loadOcct(): Promise<Occt> {
  if (!occtPromise) {
    const require = createRequire(import.meta.url);
    const factory = require('occt-import-js') as OcctFactory;
    occtPromise = compileOcct().then((module) => factory({
      print: () => {},
      printErr: () => {},
      // synchronous, so a failure rejects the factory's promise (Emscripten catches what this throws)
      instantiateWasm: (imports, receive) => {
        const instance = new WebAssembly.Instance(module, imports);
        receive(instance, module);
        return instance.exports;
      },
    }));
    occtPromise.catch(() => { occtPromise = null; });
  }
  return occtPromise;
}

/** Drops the thread's OCCT instance (after a WASM abort its state cannot be trusted); the next
 * import loads a fresh one. */
export function resetOcct(): void { occtPromise = null; }
