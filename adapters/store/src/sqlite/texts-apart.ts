// Kept texts stored once per account. A quote's line items and quantity options are the same JSON in
// every quote of a (design, configuration) (the quote cache keeps them; the use case names them in
// the write's `apart`), and written into each quote's row they made a row ~2 KB: about a page per
// quote for every commit to write, fsync and checkpoint. A document's row keeps its text without them (jsonTextApart) and names
// each by its sha256 in `documents.apart`; `texts_apart` holds each text once per account (not
// across accounts: one account's content never stands in another's row). Texts are never changed
// (the name is the content's hash) nor deleted with a document (another may name the same text).
import type Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { BoundedMap } from '@kerf/common';
import { joinTextsApart, jsonTextApart, type TextApart } from '../common/json.ts';

/** How many (account, text) pairs a store remembers as stored, and texts it keeps read. */
const REMEMBERED = 4096;

/** `documents.apart`: each text's place in the row's text and its hash, in place order. */
type ApartColumn = Array<[at: number, hash: string]>;

export class TextsApart {
  /** `account \0 hash` of texts known to be in the database: committed by this store, or read from it */
  private readonly stored = new BoundedMap<string, true>(REMEMBERED);
  /** the texts read, by the same key */
  private readonly read = new BoundedMap<string, string>(REMEMBERED);
  /** the text and hash of each value named apart: such a value never changes (DocumentCollection.create's `apart`) */
  private readonly texts = new WeakMap<object, { text: string; hash: string }>();
  private readonly insert;
  private readonly select;

  constructor(db: Database.Database) {
    this.insert = db.prepare('INSERT OR IGNORE INTO texts_apart (account_id, hash, text) VALUES (?, ?, ?)');
    this.select = db.prepare('SELECT text FROM texts_apart WHERE account_id = ? AND hash = ?').pluck();
  }

  /** `data`'s text for its row, the texts of the values named in `apart` taken out (jsonTextApart). */
  split(data: unknown, apart: ReadonlyArray<object> | undefined): { text: string; apart: TextApart[] } {
    return jsonTextApart(data, 'data', apart && apart.length > 0 ? new Set(apart) : undefined, (value) => {
      let kept = this.texts.get(value);
      if (!kept) {
        const text = JSON.stringify(value);
        this.texts.set(value, kept = { text, hash: createHash('sha256').update(text).digest('base64url') });
      }
      return kept;
    });
  }

  /**
   * Inside the document's write: stores the account's texts not yet known stored. Returns the
   * column's value and what to call once the write has committed (only then are they known stored).
   */
  put(accountId: string, apart: TextApart[]): { column: string | null; committed: () => void } {
    if (apart.length === 0) return { column: null, committed: noop };
    const added: string[] = [];
    for (const a of apart) {
      const key = `${accountId}\u0000${a.hash}`;
      if (this.stored.get(key)) continue;
      this.insert.run(accountId, a.hash, a.text);
      added.push(key);
    }
    const column = JSON.stringify(apart.map((a): [number, string] => [a.at, a.hash]));
    return { column, committed: added.length === 0 ? noop : () => { for (const k of added) this.stored.set(k, true); } };
  }

  /** A row's whole JSON text. */
  join(accountId: string, text: string, column: string | null): string {
    if (column === null) return text;
    const apart = (JSON.parse(column) as ApartColumn).map(([at, hash]) => ({ at, text: this.text(accountId, hash) }));
    return joinTextsApart(text, apart);
  }

  private text(accountId: string, hash: string): string {
    const key = `${accountId}\u0000${hash}`;
    const known = this.read.get(key);
    if (known !== undefined) return known;
    const text = this.select.get(accountId, hash) as string | undefined;
    // a row names only texts its own write stored (or found stored): a missing one is a damaged database
    if (text === undefined) throw new Error(`the embedded store lacks text ${hash} of account ${accountId}`);
    this.read.set(key, text);
    this.stored.set(key, true);
    return text;
  }
}

const noop = (): void => {};
