// occt-import-js's JavaScript glue, with three of its embind functions made faster. Its C++ copies the
// STEP bytes into WASM one byte at a time (embind's vecFromJSArray: per byte, about five calls from
// WASM into this glue) and builds the meshes' arrays one element at a time the same way; two of those
// calls look the value's type up in a dictionary keyed by type id on every call, and every emval::as
// allocates an array for destructors that almost always stays empty. The WASM cannot be rebuilt
// here, so the glue is loaded from its source with those functions replaced by equivalents that
// remember the last types they looked up (a registered type never changes: embind refuses to
// register one twice) and reuse the empty destructors array. The patch applies only to the exact glue
// of occt-import-js 0.0.23 (its SHA-256) and only when every replacement matches exactly once;
// anything else loads the stock glue unchanged. About 6 % of an import's CPU time (bench steady).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { compileFunction } from 'node:vm';

/** Emscripten's module factory (options: Emscripten's Module object). */
export type OcctFactory<T> = (module?: {
  print?: (s: string) => void;
  printErr?: (s: string) => void;
  /** Emscripten's hook: instantiate the WASM ourselves (from a module compiled beforehand) */
  instantiateWasm?: (imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => WebAssembly.Exports;
}) => Promise<T>;

/** SHA-256 of occt-import-js 0.0.23's dist/occt-import-js.js, the glue the replacements were written for. */
const GLUE_SHA256 = '3fb44ce11d00611f9b3f3c5775d520ebab48930c1f08279b7b1316f05f0d3379';

/** Exact text of the glue -> its replacement. Each keeps the stock order of checks and errors. */
const REPLACEMENTS: ReadonlyArray<readonly [string, string]> = [
  // emval::as: the last type looked up is remembered
  ['var __emval_as=(handle,returnType,destructorsRef)=>{handle=Emval.toValue(handle);returnType=requireRegisteredType(returnType,"emval::as");return emval_returnValue(returnType,destructorsRef,handle)};',
    'var emval_asRaw=null,emval_asType=null;var __emval_as=(handle,returnType,destructorsRef)=>{handle=Emval.toValue(handle);if(returnType!==emval_asRaw){emval_asType=requireRegisteredType(returnType,"emval::as");emval_asRaw=returnType}return emval_returnValue(emval_asType,destructorsRef,handle)};'],
  // the destructors array is handed to WASM only when a type filled it; an empty one is reused
  // (taken while in use, so a re-entrant or throwing toWireType never shares it)
  ['var emval_returnValue=(returnType,destructorsRef,handle)=>{var destructors=[];var result=returnType["toWireType"](destructors,handle);if(destructors.length){HEAPU32[destructorsRef>>2]=Emval.toHandle(destructors)}return result};',
    'var emval_spareDestructors=[];var emval_returnValue=(returnType,destructorsRef,handle)=>{var destructors=emval_spareDestructors||[];emval_spareDestructors=null;var result=returnType["toWireType"](destructors,handle);if(destructors.length){HEAPU32[destructorsRef>>2]=Emval.toHandle(destructors)}else{emval_spareDestructors=destructors}return result};'],
  // take_value: the last two types are remembered (result arrays alternate an integer index and a double)
  ['var __emval_take_value=(type,arg)=>{type=requireRegisteredType(type,"_emval_take_value");var v=type["readValueFromPointer"](arg);return Emval.toHandle(v)};',
    'var emval_tvRaw0=null,emval_tvType0=null,emval_tvRaw1=null,emval_tvType1=null;var __emval_take_value=(type,arg)=>{var t;if(type===emval_tvRaw0){t=emval_tvType0}else if(type===emval_tvRaw1){t=emval_tvType1}else{t=requireRegisteredType(type,"_emval_take_value");emval_tvRaw1=emval_tvRaw0;emval_tvType1=emval_tvType0;emval_tvRaw0=type;emval_tvType0=t}var v=t["readValueFromPointer"](arg);return Emval.toHandle(v)};'],
];

/** The patched glue's source, or null when `source` is not the glue the replacements were written for. */
export function patchedGlueSource(source: string): string | null {
  if (createHash('sha256').update(source, 'utf8').digest('hex') !== GLUE_SHA256) return null;
  let out = source;
  for (const [from, to] of REPLACEMENTS) {
    const at = out.indexOf(from);
    if (at < 0 || out.indexOf(from, at + 1) >= 0) return null;
    out = out.slice(0, at) + to + out.slice(at + from.length);
  }
  return out;
}

/** Evaluates a CommonJS source the way require() would (same file name, so stack traces still name
 * the glue) and returns its module.exports. */
function evaluateCommonJs(source: string, filename: string): unknown {
  const wrapper = compileFunction(source, ['exports', 'require', 'module', '__filename', '__dirname'], { filename });
  const module = { exports: {} as unknown };
  wrapper.call(module.exports, module.exports, createRequire(filename), module, filename, dirname(filename));
  return module.exports;
}

/** occt-import-js's factory from `gluePath` (by default the installed glue): patched when the file
 * is 0.0.23's glue, otherwise (or if the patched source fails to evaluate) the stock module. */
export function loadOcctFactory<T>(gluePath?: string): { factory: OcctFactory<T>; patched: boolean } {
  const require = createRequire(import.meta.url);
  const path = gluePath ?? require.resolve('occt-import-js');
  const patched = patchedGlueSource(readFileSync(path, 'utf8'));
  if (patched !== null) {
    try {
      const factory = evaluateCommonJs(patched, path);
      if (typeof factory === 'function') return { factory: factory as OcctFactory<T>, patched: true };
    } catch { /* the stock glue below */ }
  }
  return { factory: require(path) as OcctFactory<T>, patched: false };
}
