// Per-store caches of the use cases, each a BoundedMap (@kerf/common).
import { BoundedMap } from '@kerf/common';

/** One BoundedMap per store (a test or a CLI run may open several), made on first use. */
export class PerStore<V> {
  private readonly maps = new WeakMap<object, BoundedMap<string, V>>();

  constructor(private readonly max: number) {}

  of(store: object): BoundedMap<string, V> {
    let m = this.maps.get(store);
    if (!m) this.maps.set(store, (m = new BoundedMap(this.max)));
    return m;
  }
}
