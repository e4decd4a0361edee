import { newId } from '@kerf/common';
import { checkNonEmpty, emailOrNull, normalizeEmail } from '../common/validate.ts';
import { StoreError, type Account, type AccountPatch, type AccountRepo, type DropshipStatus, type NewAccount } from '../port.ts';
import { isUniqueViolation, type SqliteContext } from './context.ts';

interface AccountRow {
  id: string;
  email: string;
  name: string;
  operator: number;
  dropship_status: DropshipStatus | null;
  created_at: string;
  updated_at: string;
}

const DROPSHIP_STATUSES: readonly (DropshipStatus | null)[] = ['requested', 'approved', 'suspended', 'denied', null];

function toAccount(r: AccountRow): Account {
  return {
    id: r.id, email: r.email, name: r.name, operator: r.operator === 1,
    dropshipStatus: r.dropship_status, createdAt: r.created_at, updatedAt: r.updated_at,
  };
}

export class SqliteAccounts implements AccountRepo {
  private readonly insert;
  private readonly byId;
  private readonly byEmail;
  private readonly countAll;
  constructor(private readonly ctx: SqliteContext) {
    const { db } = ctx;
    this.insert = db.prepare(`INSERT INTO accounts (id, email, name, operator, dropship_status, created_at, updated_at)
      VALUES (@id, @email, @name, @operator, NULL, @now, @now) RETURNING *`);
    this.byId = db.prepare('SELECT * FROM accounts WHERE id = ?');
    this.byEmail = db.prepare('SELECT * FROM accounts WHERE email = ?');
    this.countAll = db.prepare('SELECT COUNT(*) AS n FROM accounts');
  }

  async create(input: NewAccount): Promise<Account> {
    const email = normalizeEmail(input?.email);
    const name = input.name === undefined ? email.split('@')[0] : checkNonEmpty(input.name, 'name', 200);
    const now = this.ctx.now();
    try {
      const row = await this.ctx.write(() => this.insert.get({ id: newId('acct', now), email, name, operator: input.operator ? 1 : 0, now: now.toISOString() }) as AccountRow);
      return toAccount(row);
    } catch (err) {
      if (isUniqueViolation(err)) throw new StoreError('duplicate', `an account with email ${email} exists`, 'email');
      throw err;
    }
  }

  async get(accountId: string): Promise<Account | null> {
    const row = this.byId.get(String(accountId)) as AccountRow | undefined;
    return row ? toAccount(row) : null;
  }

  async findByEmail(email: string): Promise<Account | null> {
    const normalized = emailOrNull(email);
    if (normalized === null) return null;
    const row = this.byEmail.get(normalized) as AccountRow | undefined;
    return row ? toAccount(row) : null;
  }

  async update(accountId: string, patch: AccountPatch): Promise<Account | null> {
    const sets: string[] = [];
    const params: Record<string, unknown> = { id: String(accountId), now: this.ctx.now().toISOString() };
    if (patch.name !== undefined) { sets.push('name = @name'); params.name = checkNonEmpty(patch.name, 'name', 200); }
    if (patch.operator !== undefined) { sets.push('operator = @operator'); params.operator = patch.operator ? 1 : 0; }
    if (patch.dropshipStatus !== undefined) {
      if (!DROPSHIP_STATUSES.includes(patch.dropshipStatus)) throw new StoreError('invalid_argument', 'unknown dropship status', 'dropshipStatus');
      sets.push('dropship_status = @dropship');
      params.dropship = patch.dropshipStatus;
    }
    sets.push('updated_at = @now');
    const update = this.ctx.db.prepare(`UPDATE accounts SET ${sets.join(', ')} WHERE id = @id RETURNING *`);
    const row = await this.ctx.write(() => update.get(params) as AccountRow | undefined);
    return row ? toAccount(row) : null;
  }

  async count(): Promise<number> {
    return (this.countAll.get() as { n: number }).n;
  }
}
