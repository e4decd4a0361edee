// Download links: the MAC is checked as the exact text the signer wrote, so no other spelling of it
// (base64url's last character carries spare bits) is accepted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UrlSigner } from '@kerf/usecases';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

test('a download token is valid only exactly as signed: every other spelling of its MAC is refused', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  const signer = new UrlSigner(Buffer.alloc(32, 7), () => now);
  for (let i = 0; i < 40; i++) {
    const token = signer.sign({ k: `blob/${i}`, t: 'model/gltf-binary', n: `part-${i}.glb` });
    assert.equal(typeof signer.verify(token), 'object', 'the token as signed');
    // a 32-byte MAC is 43 characters: the last one holds 4 bits of the MAC and 2 spare bits
    const last = ALPHABET.indexOf(token.at(-1)!);
    for (let spare = 0; spare < 4; spare++) {
      const other = ALPHABET[(last & ~3) | spare];
      if (other === token.at(-1)) continue;
      assert.equal(signer.verify(token.slice(0, -1) + other), 'invalid', `MAC spelled with '${other}' for '${token.at(-1)}'`);
    }
    assert.equal(signer.verify(token.slice(0, -2) + (token.at(-2) === 'A' ? 'B' : 'A') + token.at(-1)), 'invalid', 'a changed MAC');
  }
});
