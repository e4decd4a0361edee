// Best proper rotation between two matched point sets (Horn's quaternion method): exact for
// corresponding exact points, and never a reflection.
import type { Rigid, Vec3 } from '../geometry/model.ts';
import { dominantEigenvector } from '../geometry/vec.ts';

export function bestRigid(from: Vec3[], to: Vec3[]): Rigid {
  const n = from.length;
  const ca: Vec3 = [0, 0, 0], cb: Vec3 = [0, 0, 0];
  for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) { ca[k] += from[i][k] / n; cb[k] += to[i][k] / n; }
  const s = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
  for (let i = 0; i < n; i++) {
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) s[r][c] += (from[i][r] - ca[r]) * (to[i][c] - cb[c]);
  }
  const [[sxx, sxy, sxz], [syx, syy, syz], [szx, szy, szz]] = s;
  const nm = [
    [sxx + syy + szz, syz - szy, szx - sxz, sxy - syx],
    [syz - szy, sxx - syy - szz, sxy + syx, szx + sxz],
    [szx - sxz, sxy + syx, -sxx + syy - szz, syz + szy],
    [sxy - syx, szx + sxz, syz + szy, -sxx - syy + szz],
  ];
  const [w, x, y, z] = dominantEigenvector(nm);
  const rotation: Rigid['rotation'] = [
    [w * w + x * x - y * y - z * z, 2 * (x * y - w * z), 2 * (x * z + w * y)],
    [2 * (x * y + w * z), w * w - x * x + y * y - z * z, 2 * (y * z - w * x)],
    [2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z],
  ];
  const rc: Vec3 = [
    rotation[0][0] * ca[0] + rotation[0][1] * ca[1] + rotation[0][2] * ca[2],
    rotation[1][0] * ca[0] + rotation[1][1] * ca[1] + rotation[1][2] * ca[2],
    rotation[2][0] * ca[0] + rotation[2][1] * ca[1] + rotation[2][2] * ca[2],
  ];
  return { rotation, translation: [cb[0] - rc[0], cb[1] - rc[1], cb[2] - rc[2]] };
}
