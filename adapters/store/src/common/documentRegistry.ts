// One DocumentCollection object per (name, id prefix), checked once; shared by both stores.
import { KNOWN_ID_PREFIXES, type DocumentCollection } from '../port.ts';
import { checkCollectionName, checkIdPrefix } from './validate.ts';

export class DocumentRegistry {
  private readonly collections = new Map<string, DocumentCollection<unknown>>();
  constructor(private readonly make: (name: string, idPrefix: string) => DocumentCollection<unknown>) {}

  get<T>(name: string, opts: { idPrefix?: string } = {}): DocumentCollection<T> {
    checkCollectionName(name);
    const prefix = checkIdPrefix(opts.idPrefix ?? KNOWN_ID_PREFIXES[name] ?? 'doc');
    const cacheKey = `${name}\u0000${prefix}`;
    let c = this.collections.get(cacheKey);
    if (!c) {
      c = this.make(name, prefix);
      this.collections.set(cacheKey, c);
    }
    return c as DocumentCollection<T>;
  }
}
