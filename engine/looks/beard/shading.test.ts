import { describe, expect, it } from 'vitest';
import { evalShading, fitShading, type NormalField } from './shading.ts';

/**
 * A sphere's normals over a 64 x 64 grid (NaN off it) and the log lightness of a Lambertian surface lit
 * from the upper left (plus ambient), with noise and a few specular outliers on the lit side.
 */
function litSphere() {
  const w = 64, n = w * w, R = 30;
  const normals: NormalField = { nx: new Float32Array(n).fill(NaN), ny: new Float32Array(n).fill(NaN), nz: new Float32Array(n).fill(NaN) };
  const logL = new Float32Array(n);
  const light = [-0.5, -0.6, 0.62];
  let seed = 9;
  const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  for (let y = 0; y < w; y++) for (let x = 0; x < w; x++) {
    const dx = (x - 32) / R, dy = (y - 32) / R, r2 = dx * dx + dy * dy;
    if (r2 >= 1) continue;
    const i = y * w + x, nz = Math.sqrt(1 - r2);
    normals.nx[i] = dx; normals.ny[i] = dy; normals.nz[i] = nz;
    const lambert = Math.max(0, dx * light[0] + dy * light[1] + nz * light[2]);
    logL[i] = Math.log(20 + 60 * lambert) + 0.01 * (rand() - 0.5);
  }
  return { w, n, normals, logL };
}

describe('face light (shading.ts)', () => {
  it('fits the light on the upper part of a surface and predicts the lower part it did not see', () => {
    const { w, n, normals, logL } = litSphere();
    // Seen: the upper 60 % (a face's cheeks and nose), with a few highlights (a nose's sheen) among them.
    const weight = new Float32Array(n);
    const seen = Float32Array.from(logL);
    for (let i = 0; i < n; i++) if (normals.nx[i] === normals.nx[i] && ((i / w) | 0) < 40) weight[i] = 1;
    for (let i = 0; i < n; i += 37) if (weight[i]) seen[i] += 0.8;
    const coef = fitShading(seen, weight, normals, 2, { huber: 0.05, ridge: 0.001 })!;
    expect(coef).not.toBeNull();
    const fit = evalShading(coef, normals, 2);
    // The unseen lower part (the chin, its lower rim in the attached shadow no low order fits exactly), in
    // log lightness: 0.22 off on average, where a constant (the seen part's mean: what a flat fill gives)
    // is 0.74 off.
    let err = 0, flatErr = 0, k = 0, mean = 0, m = 0;
    for (let i = 0; i < n; i++) if (weight[i]) { mean += logL[i]; m++; }
    mean /= m;
    for (let i = 0; i < n; i++) {
      if (normals.nx[i] !== normals.nx[i] || ((i / w) | 0) < 44) continue;
      err += Math.abs(fit[i] - logL[i]); flatErr += Math.abs(mean - logL[i]); k++;
    }
    expect(err / k).toBeLessThan(0.3);
    expect(err / k).toBeLessThan(0.4 * (flatErr / k));
  });

  it('gives no fit with too few cells', () => {
    const { n, normals, logL } = litSphere();
    const weight = new Float32Array(n);
    let put = 0;
    for (let i = 0; i < n && put < 10; i++) if (normals.nx[i] === normals.nx[i]) { weight[i] = 1; put++; }
    expect(fitShading(logL, weight, normals, 2, { huber: 0.05, ridge: 0.01 })).toBeNull();
  });
});
