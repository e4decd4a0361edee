// Every consumer of flat contours (previews, meshes, exact flat STEP) must read a full circle whose
// end angle carries float noise as a full circle: a real PCIe bracket's holes vanished from the flat
// image and mesh when -360.0000001 degrees was taken as an empty arc.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contourToPolyline, polygonArea } from '../src/files/polyline.ts';
import type { Contour } from '../src/geometry/model.ts';

const R = 5.075;
const circle = (startDegrees: number, endDegrees: number, ccw: boolean): Contour =>
  [{ kind: 'arc', center: [10, 20], radius: R, startDegrees, endDegrees, ccw }];

test('full circles a hair off 360 degrees keep their whole area in polylines', () => {
  for (const [s, e, ccw] of [[0, -360, false], [0, -360.0000001, false], [0, -359.9999999, false],
    [0, 360.0000001, true], [-13.85, -373.8500001, false], [-228.46, 131.5400001, true]] as const) {
    const pts = contourToPolyline(circle(s, e, ccw), 0.01);
    assert.ok(pts.length >= 12, `${s}->${e}: ${pts.length} points`);
    const area = Math.abs(polygonArea(pts));
    assert.ok(Math.abs(area - Math.PI * R * R) / (Math.PI * R * R) < 0.01, `${s}->${e}: area ${area}`);
  }
});

test('a quarter arc stays a quarter arc in its own direction', () => {
  const pts = contourToPolyline([{ kind: 'arc', center: [0, 0], radius: 1, startDegrees: 0, endDegrees: -90, ccw: false }], 0.001);
  assert.ok(Math.abs(pts[0][0] - 1) < 1e-12 && Math.abs(pts[0][1]) < 1e-12);
  assert.ok(pts.every(([x, y]) => x >= -1e-9 && y <= 1e-9), 'clockwise from 0 to -90 stays in the fourth quadrant');
});
