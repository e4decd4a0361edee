// @kerf/common: small generic helpers with no dependency, shared by the store, the use cases, the
// transports and the service (the engine keeps to its own). Nothing here knows a resource or a layer.
export { BoundedMap } from './bounded-map.ts';
export { idOf, newId, pooledRandomBytes } from './ids.ts';
