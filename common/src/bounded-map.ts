// A Map that keeps at most `max` entries, the least recently used going first: the one shape of
// every in-process cache of the store, the use cases and the service (remembered API keys, texts
// kept apart, parsed designs, settled reports, K-map names, kept DFM reports), so none of them
// grows with the traffic.
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>();
  /**
   * The entry last in use order: reading it again moves nothing. A cache read over and over with
   * one key (a quote of one design) skipped a Map delete and insert per read (~1 us of ~1.1).
   */
  private newest: K | undefined;

  constructor(private readonly max: number) {}

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined && key !== this.newest) {
      // most recently used last: the first entry is the one to drop
      this.entries.delete(key);
      this.entries.set(key, value);
      this.newest = key;
    }
    return value;
  }

  delete(key: K): boolean {
    if (key === this.newest) this.newest = undefined;
    return this.entries.delete(key);
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    this.newest = key;
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }
}
