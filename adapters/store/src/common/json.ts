// The caller's JSON values (payloads, results, document data, replayed bodies) are kept exactly as
// JSON keeps them in both stores: no undefined, no Date objects, no class instances.
import { StoreError } from '../port.ts';

export function toJsonText(value: unknown, param: string): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (err) {
    throw new StoreError('invalid_argument', `${param} is not JSON-serialisable`, param, { cause: err });
  }
  if (text === undefined) throw new StoreError('invalid_argument', `${param} is not JSON-serialisable`, param);
  return text;
}

export function plainJson(value: unknown, param: string): unknown {
  return JSON.parse(toJsonText(value, param));
}
