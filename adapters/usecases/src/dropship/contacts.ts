// The account's contact phone: used for a ship_to without one. Set by the
// operator with the account's dropship status.
import type { Doc } from '../core/index.ts';
import type { CommerceContext } from '../commerce/index.ts';

interface ContactDoc extends Doc { phone: string | null }

const COLLECTION = 'dropship_contacts';
const KEY = 'contact';

export async function contactPhone(ctx: Pick<CommerceContext, 'store'>, accountId: string): Promise<string | null> {
  return (await ctx.store.documents<ContactDoc>(COLLECTION).getByKey(accountId, KEY))?.data.phone ?? null;
}

export async function setContactPhone(ctx: Pick<CommerceContext, 'store' | 'newId'>, accountId: string, phone: string): Promise<void> {
  const docs = ctx.store.documents<ContactDoc>(COLLECTION);
  const rec = await docs.getByKey(accountId, KEY);
  if (rec) await docs.update(accountId, rec.id, { ...rec.data, phone });
  else {
    const id = ctx.newId('dct');
    await docs.create(accountId, { id, phone }, { id, key: KEY });
  }
}
