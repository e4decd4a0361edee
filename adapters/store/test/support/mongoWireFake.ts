// An in-process stand-in for a MongoDB server, for tests only: it speaks the wire protocol
// (OP_QUERY handshake, OP_MSG commands) on 127.0.0.1 so that the real `mongodb` driver, and so the
// real MongoDB store, run unchanged against it. Queries, sorts and update operators are evaluated
// by mingo; unique indexes (with partial filters) are enforced with E11000 like a server.
//
// It is NOT MongoDB: no durability, no real isolation (every command runs to completion on one
// event loop, which makes single-document operations atomic as on a server), no transactions
// beyond accepting their commands. It exists because no MongoDB server can be installed here; a
// real server is still the test that counts (MONGODB_URL, see the README).
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { BSON, Long, type Document } from 'mongodb';
import { Query, find as mingoFind, aggregate as mingoAggregate } from 'mingo';
import { update as mingoUpdate } from 'mingo/updater';

const OP_REPLY = 1;
const OP_QUERY = 2004;
const OP_MSG = 2013;
const MAX_WIRE_VERSION = 21; // MongoDB 7.0

interface IndexSpec {
  name: string;
  key: Record<string, number>;
  unique?: boolean;
  partialFilterExpression?: Document;
  expireAfterSeconds?: number;
}

interface CollectionState {
  docs: Document[];
  indexes: IndexSpec[];
}

class CommandError extends Error {
  constructor(readonly code: number, message: string, readonly extra: Document = {}) {
    super(message);
  }
}

function keyString(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (v && typeof v === 'object' && typeof v.toHexString === 'function' ? `oid:${v.toHexString()}` : v)) ?? 'null';
}

function getPath(doc: Document, path: string): unknown {
  let cur: unknown = doc;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Document)[part];
  }
  return cur;
}

/** Keeps `sub` of an object, or of each object of an array, as a dotted inclusion does. */
function pick(value: unknown, sub: string[]): unknown {
  if (Array.isArray(value)) return value.filter((v) => v !== null && typeof v === 'object').map((v) => pick(v, sub));
  if (value === null || typeof value !== 'object') return undefined;
  return Object.fromEntries(sub.filter((k) => k in (value as Document)).map((k) => [k, (value as Document)[k]]));
}

/**
 * Inclusion or exclusion projections of top-level fields, and inclusions one level down
 * ('outbox.id', into an array's objects too): all the store asks for.
 */
function project(doc: Document, projection: Document): Document {
  const fields = Object.entries(projection);
  const including = fields.some(([k, v]) => k !== '_id' && v);
  const out: Document = {};
  if (including) {
    if (projection._id !== 0) out._id = doc._id;
    const nested = new Map<string, string[]>();
    for (const [k, v] of fields) {
      if (!v) continue;
      const [top, sub] = k.split('.', 2);
      if (sub === undefined) { if (k in doc) out[k] = doc[k]; } else nested.set(top, [...(nested.get(top) ?? []), sub]);
    }
    for (const [top, sub] of nested) if (top in doc && !(top in out)) out[top] = pick(doc[top], sub);
  } else {
    Object.assign(out, doc);
    for (const [k] of fields) delete out[k];
  }
  return out;
}

function hasOperators(update: Document): boolean {
  return Object.keys(update).some((k) => k.startsWith('$'));
}

export interface MongoWireFake {
  url: string;
  /** How often each command name was received (for tests of which path the store took). */
  commandCounts: Map<string, number>;
  close(): Promise<void>;
}

export async function startMongoWireFake(opts: { replicaSet?: string } = {}): Promise<MongoWireFake> {
  const databases = new Map<string, Map<string, CollectionState>>();
  let connectionId = 0;
  let address = '';

  function collection(db: string, name: string, create = true): CollectionState | undefined {
    let d = databases.get(db);
    if (!d) {
      if (!create) return undefined;
      d = new Map();
      databases.set(db, d);
    }
    let c = d.get(name);
    if (!c && create) {
      c = { docs: [], indexes: [{ name: '_id_', key: { _id: 1 }, unique: true }] };
      d.set(name, c);
    }
    return c;
  }

  /** The first unique index that `doc` would violate among `others`, as a server reports it. */
  function uniqueViolation(c: CollectionState, doc: Document, others: Document[]): Document | null {
    for (const idx of c.indexes) {
      if (!idx.unique) continue;
      const applies = (d: Document) => !idx.partialFilterExpression || new Query(idx.partialFilterExpression).test(d);
      if (!applies(doc)) continue;
      const fields = Object.keys(idx.key);
      const value = (d: Document) => keyString(fields.map((f) => getPath(d, f) ?? null));
      const mine = value(doc);
      if (others.some((o) => o !== doc && applies(o) && value(o) === mine)) {
        const keyValue: Document = {};
        for (const f of fields) keyValue[f] = getPath(doc, f) ?? null;
        return { code: 11000, errmsg: `E11000 duplicate key error collection index: ${idx.name}`, keyPattern: idx.key, keyValue };
      }
    }
    return null;
  }

  function hello(): Document {
    const reply: Document = {
      helloOk: true, isWritablePrimary: true, ismaster: true, maxBsonObjectSize: 16 * 1024 * 1024,
      maxMessageSizeBytes: 48_000_000, maxWriteBatchSize: 100_000, localTime: new Date(), logicalSessionTimeoutMinutes: 30,
      connectionId: ++connectionId, minWireVersion: 0, maxWireVersion: MAX_WIRE_VERSION, readOnly: false, ok: 1,
    };
    if (opts.replicaSet) Object.assign(reply, { setName: opts.replicaSet, hosts: [address], primary: address, me: address, secondary: false, setVersion: 1 });
    return reply;
  }

  function cursorReply(ns: string, batch: Document[]): Document {
    return { cursor: { id: Long.ZERO, ns, firstBatch: batch }, ok: 1 };
  }

  function findDocs(c: CollectionState, filter: Document, sort?: Document, limit?: number, skip?: number, projection?: Document): Document[] {
    let cursor = mingoFind(c.docs, filter ?? {});
    if (sort && Object.keys(sort).length) cursor = cursor.sort(sort as Record<string, 1 | -1>);
    if (skip) cursor = cursor.skip(skip);
    if (limit) cursor = cursor.limit(Math.abs(limit));
    // Hand back the stored objects themselves (mingo may copy), so that writes change the store.
    const found = (cursor.all() as Document[]).map((f) => c.docs.find((d) => keyString(d._id) === keyString(f._id)) ?? f);
    return projection && Object.keys(projection).length ? found.map((d) => project(d, projection)) : found;
  }

  /** Applies an update or replacement in place; on a unique violation restores and throws. */
  function applyUpdate(c: CollectionState, doc: Document, update: Document): void {
    const before = structuredClone(doc);
    if (hasOperators(update)) {
      mingoUpdate(doc, update as never);
    } else {
      for (const k of Object.keys(doc)) if (k !== '_id') delete doc[k];
      Object.assign(doc, update, { _id: doc._id });
    }
    const violation = uniqueViolation(c, doc, c.docs);
    if (violation) {
      for (const k of Object.keys(doc)) delete doc[k];
      Object.assign(doc, before);
      throw new CommandError(11000, violation.errmsg, { keyPattern: violation.keyPattern, keyValue: violation.keyValue });
    }
  }

  function run(cmd: Document, sequences: Record<string, Document[]>): Document {
    const name = Object.keys(cmd)[0];
    const db = (cmd.$db as string) ?? 'admin';
    const coll = cmd[name] as string;
    const ns = `${db}.${coll}`;
    switch (name) {
      case 'hello': case 'isMaster': case 'ismaster': return hello();
      case 'ping': case 'endSessions': case 'killCursors': case 'commitTransaction': case 'abortTransaction': return { ok: 1 };
      case 'buildInfo': case 'buildinfo': return { version: '7.0.0', versionArray: [7, 0, 0, 0], ok: 1 };
      case 'dropDatabase': databases.delete(db); return { ok: 1 };
      case 'createIndexes': {
        const c = collection(db, coll)!;
        for (const spec of cmd.indexes as IndexSpec[]) {
          const same = c.indexes.find((i) => i.name === spec.name);
          if (same && keyString(same.key) !== keyString(spec.key)) throw new CommandError(86, `index ${spec.name} exists with another key`);
          if (!same) c.indexes.push(spec);
        }
        return { ok: 1, numIndexesAfter: c.indexes.length };
      }
      case 'listIndexes': {
        const c = collection(db, coll, false);
        if (!c) throw new CommandError(26, `ns does not exist: ${ns}`, { codeName: 'NamespaceNotFound' });
        return cursorReply(ns, c.indexes.map((i) => ({ v: 2, ...i })));
      }
      case 'insert': {
        const c = collection(db, coll)!;
        const docs = (cmd.documents as Document[] | undefined) ?? sequences.documents ?? [];
        const writeErrors: Document[] = [];
        let n = 0;
        docs.forEach((doc, index) => {
          const violation = uniqueViolation(c, doc, c.docs);
          if (violation) writeErrors.push({ index, ...violation });
          else { c.docs.push(doc); n += 1; }
        });
        return writeErrors.length ? { n, writeErrors, ok: 1 } : { n, ok: 1 };
      }
      case 'find': {
        const c = collection(db, coll, false);
        const docs = c ? findDocs(c, cmd.filter, cmd.sort, cmd.limit, cmd.skip, cmd.projection) : [];
        return cursorReply(ns, docs);
      }
      case 'aggregate': {
        const c = collection(db, coll, false);
        return cursorReply(ns, c ? (mingoAggregate(c.docs, cmd.pipeline) as Document[]) : []);
      }
      case 'findAndModify': {
        const c = collection(db, coll)!;
        const [doc] = findDocs(c, cmd.query ?? {}, cmd.sort, 1);
        if (!doc) return { lastErrorObject: { n: 0, updatedExisting: false }, value: null, ok: 1 };
        const before = structuredClone(doc);
        if (cmd.remove) {
          c.docs.splice(c.docs.indexOf(doc), 1);
          return { lastErrorObject: { n: 1 }, value: before, ok: 1 };
        }
        applyUpdate(c, doc, cmd.update);
        return { lastErrorObject: { n: 1, updatedExisting: true }, value: cmd.new ? doc : before, ok: 1 };
      }
      case 'update': {
        const c = collection(db, coll)!;
        let n = 0;
        let nModified = 0;
        const writeErrors: Document[] = [];
        const updates = (cmd.updates as Document[] | undefined) ?? sequences.updates ?? [];
        updates.forEach((u, index) => {
          const matched = findDocs(c, u.q, undefined, u.multi ? undefined : 1);
          try {
            for (const doc of matched) {
              const before = keyString(doc);
              applyUpdate(c, doc, u.u);
              n += 1;
              if (keyString(doc) !== before) nModified += 1;
            }
          } catch (err) {
            if (!(err instanceof CommandError)) throw err;
            writeErrors.push({ index, code: err.code, errmsg: err.message, ...err.extra });
          }
        });
        return writeErrors.length ? { n, nModified, writeErrors, ok: 1 } : { n, nModified, ok: 1 };
      }
      case 'delete': {
        const c = collection(db, coll, false);
        let n = 0;
        const deletes = (cmd.deletes as Document[] | undefined) ?? sequences.deletes ?? [];
        for (const d of deletes) {
          if (!c) break;
          const matched = findDocs(c, d.q, undefined, d.limit === 1 ? 1 : undefined);
          for (const doc of matched) { c.docs.splice(c.docs.indexOf(doc), 1); n += 1; }
        }
        return { n, ok: 1 };
      }
      default:
        throw new CommandError(59, `no such command: '${name}'`, { codeName: 'CommandNotFound' });
    }
  }

  const commandCounts = new Map<string, number>();
  function safeRun(cmd: Document, sequences: Record<string, Document[]>): Document {
    const name = Object.keys(cmd)[0];
    commandCounts.set(name, (commandCounts.get(name) ?? 0) + 1);
    try {
      return run(cmd, sequences);
    } catch (err) {
      if (err instanceof CommandError) return { ok: 0, code: err.code, errmsg: err.message, ...err.extra };
      return { ok: 0, code: 1, errmsg: `fake server failure: ${(err as Error).message}` };
    }
  }

  function header(length: number, requestId: number, responseTo: number, opCode: number): Buffer {
    const h = Buffer.alloc(16);
    h.writeInt32LE(length, 0);
    h.writeInt32LE(requestId, 4);
    h.writeInt32LE(responseTo, 8);
    h.writeInt32LE(opCode, 12);
    return h;
  }

  let nextRequestId = 1;
  function reply(socket: Socket, requestId: number, opCode: number, doc: Document): void {
    const body = Buffer.from(BSON.serialize(doc));
    if (opCode === OP_QUERY) {
      const fixed = Buffer.alloc(20); // responseFlags, cursorID, startingFrom, numberReturned
      fixed.writeInt32LE(1, 16);
      socket.write(Buffer.concat([header(16 + 20 + body.length, nextRequestId++, requestId, OP_REPLY), fixed, body]));
    } else {
      const flags = Buffer.alloc(5); // flagBits 0, section kind 0
      socket.write(Buffer.concat([header(16 + 5 + body.length, nextRequestId++, requestId, OP_MSG), flags, body]));
    }
  }

  function handle(socket: Socket, message: Buffer): void {
    const requestId = message.readInt32LE(4);
    const opCode = message.readInt32LE(12);
    if (opCode === OP_QUERY) {
      let p = 20;
      const nameEnd = message.indexOf(0, p);
      const fullName = message.toString('utf8', p, nameEnd);
      p = nameEnd + 1 + 8;
      const query = BSON.deserialize(message.subarray(p, p + message.readInt32LE(p)));
      const cmd = query.$query ?? query;
      reply(socket, requestId, OP_QUERY, safeRun({ ...cmd, $db: fullName.split('.')[0] }, {}));
      return;
    }
    if (opCode !== OP_MSG) { socket.destroy(); return; }
    const flagBits = message.readUInt32LE(16);
    const end = message.length - ((flagBits & 1) ? 4 : 0);
    let p = 20;
    let body: Document = {};
    const sequences: Record<string, Document[]> = {};
    while (p < end) {
      const kind = message[p];
      p += 1;
      if (kind === 0) {
        const size = message.readInt32LE(p);
        body = BSON.deserialize(message.subarray(p, p + size));
        p += size;
      } else {
        const size = message.readInt32LE(p);
        const stop = p + size;
        const idEnd = message.indexOf(0, p + 4);
        const id = message.toString('utf8', p + 4, idEnd);
        let q = idEnd + 1;
        const docs: Document[] = [];
        while (q < stop) {
          const docSize = message.readInt32LE(q);
          docs.push(BSON.deserialize(message.subarray(q, q + docSize)));
          q += docSize;
        }
        sequences[id] = docs;
        p = stop;
      }
    }
    const result = safeRun(body, sequences);
    if (!(flagBits & 2)) reply(socket, requestId, OP_MSG, result); // bit 1: moreToCome, no reply wanted
  }

  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
        const size = pending.readInt32LE(0);
        const message = pending.subarray(0, size);
        pending = pending.subarray(size);
        handle(socket, message);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  address = `127.0.0.1:${port}`;
  return {
    url: `mongodb://${address}/?directConnection=true`,
    commandCounts,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
