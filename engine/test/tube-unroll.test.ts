// Positions on the unrolled outer wall.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Profile } from '../src/tube/profile.ts';
import { perimeterPosition, outerPerimeter } from '../src/tube/unroll.ts';

const base = { wall: 2 };
const rect: Profile = { ...base, center: [0, 0, 0], e2: [0, 1, 0], e3: [0, 0, 1], profile: 'rectangular', outerDiameter: null, outerWidth: 60, outerHeight: 30, cornerRadius: 5 };
const round: Profile = { ...base, center: [0, 0, 0], e2: [0, 1, 0], e3: [0, 0, 1], profile: 'round', outerDiameter: 32, outerWidth: null, outerHeight: null, cornerRadius: null };
const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9, `${a} vs ${b}`);

test('rectangular perimeter and positions from the +Y side towards +Z', () => {
  const P = 4 * 25 + 4 * 10 + 2 * Math.PI * 5;
  close(outerPerimeter(rect), P);
  close(perimeterPosition(rect, 30, 0), 0);
  close(perimeterPosition(rect, 30, 5), 5);
  close(perimeterPosition(rect, 0, 15), P / 4);
  close(perimeterPosition(rect, -30, 0), P / 2);
  close(perimeterPosition(rect, 0, -15), (3 * P) / 4);
  close(perimeterPosition(rect, 30, -5), P - 5);
  // on the corner arc: 45 degrees round the first corner
  const c = 5 * Math.SQRT1_2;
  close(perimeterPosition(rect, 25 + c, 10 + c), 10 + (Math.PI * 5) / 4);
});

test('sharp rectangular corners', () => {
  const sharp: Profile = { ...rect, cornerRadius: 0 };
  close(outerPerimeter(sharp), 180);
  close(perimeterPosition(sharp, 10, 15), 15 + 20);
});

test('round: radius times angle', () => {
  close(outerPerimeter(round), 32 * Math.PI);
  close(perimeterPosition(round, 0, 16), 8 * Math.PI);
  close(perimeterPosition(round, 0, -16), 24 * Math.PI);
});
