// manifold-3d loaded once per thread, only by the code that meshes flats.

// The module's own typings are not worth importing for the few calls made here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ManifoldModule = any;

let manifoldPromise: Promise<ManifoldModule> | null = null;

export function loadManifold(): Promise<ManifoldModule> {
  if (!manifoldPromise) {
    manifoldPromise = import('manifold-3d/manifold').then(async (m) => {
      const wasm = await (m.default as (opts?: object) => Promise<ManifoldModule>)();
      wasm.setup();
      return wasm;
    });
    manifoldPromise.catch(() => { manifoldPromise = null; });
  }
  return manifoldPromise;
}
