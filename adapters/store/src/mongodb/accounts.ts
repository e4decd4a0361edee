import type { Collection, Document } from 'mongodb';
import { newId } from '@kerf/common';
import { checkNonEmpty, emailOrNull, normalizeEmail } from '../common/validate.ts';
import { StoreError, type Account, type AccountPatch, type AccountRepo, type DropshipStatus, type NewAccount } from '../port.ts';
import { isDuplicateKey, type MongoContext } from './context.ts';
import { COLLECTIONS } from './indexes.ts';

const DROPSHIP_STATUSES: readonly (DropshipStatus | null)[] = ['requested', 'approved', 'suspended', 'denied', null];

export function toAccount(d: Document): Account {
  return {
    id: d._id, email: d.email, name: d.name, operator: d.operator === true, dropshipStatus: d.dropshipStatus ?? null,
    createdAt: (d.createdAt as Date).toISOString(), updatedAt: (d.updatedAt as Date).toISOString(),
  };
}

export class MongoAccounts implements AccountRepo {
  private readonly col: Collection<Document>;
  constructor(private readonly ctx: MongoContext) {
    this.col = ctx.db.collection(COLLECTIONS.accounts);
  }

  async create(input: NewAccount): Promise<Account> {
    const email = normalizeEmail(input?.email);
    const name = input.name === undefined ? email.split('@')[0] : checkNonEmpty(input.name, 'name', 200);
    const now = this.ctx.now();
    const doc = { _id: newId('acct', now), email, name, operator: input.operator === true, dropshipStatus: null, createdAt: now, updatedAt: now };
    try {
      await this.col.insertOne(doc as Document);
    } catch (err) {
      if (isDuplicateKey(err)) throw new StoreError('duplicate', `an account with email ${email} exists`, 'email');
      throw err;
    }
    return toAccount(doc);
  }

  async get(accountId: string): Promise<Account | null> {
    const d = await this.col.findOne({ _id: String(accountId) } as Document);
    return d ? toAccount(d) : null;
  }

  async findByEmail(email: string): Promise<Account | null> {
    const normalized = emailOrNull(email);
    if (normalized === null) return null;
    const d = await this.col.findOne({ email: normalized });
    return d ? toAccount(d) : null;
  }

  async update(accountId: string, patch: AccountPatch): Promise<Account | null> {
    const set: Document = { updatedAt: this.ctx.now() };
    if (patch.name !== undefined) set.name = checkNonEmpty(patch.name, 'name', 200);
    if (patch.operator !== undefined) set.operator = patch.operator === true;
    if (patch.dropshipStatus !== undefined) {
      if (!DROPSHIP_STATUSES.includes(patch.dropshipStatus)) throw new StoreError('invalid_argument', 'unknown dropship status', 'dropshipStatus');
      set.dropshipStatus = patch.dropshipStatus;
    }
    const d = await this.col.findOneAndUpdate({ _id: String(accountId) } as Document, { $set: set }, { returnDocument: 'after' });
    return d ? toAccount(d) : null;
  }

  async count(): Promise<number> {
    return this.col.countDocuments();
  }
}
