/** Least-squares planes z = c0 + cu u + cv v through scattered samples (shading across a patch of skin). */

/**
 * The plane [c0, cu, cv] through the samples; null with fewer than `least` of them, a flat plane at their
 * mean when their positions do not pin a slope down (all on one line).
 */
export function fitPlane(u: ArrayLike<number>, v: ArrayLike<number>, z: ArrayLike<number>, least = 12): [number, number, number] | null {
  const n = z.length;
  if (n < least) return null;
  let su = 0, sv = 0, sz = 0;
  for (let i = 0; i < n; i++) { su += u[i]; sv += v[i]; sz += z[i]; }
  const mu = su / n, mv = sv / n, mz = sz / n;
  let uu = 0, vv = 0, uv = 0, uz = 0, vz = 0;
  for (let i = 0; i < n; i++) {
    const du = u[i] - mu, dv = v[i] - mv, dz = z[i] - mz;
    uu += du * du; vv += dv * dv; uv += du * dv; uz += du * dz; vz += dv * dz;
  }
  const det = uu * vv - uv * uv;
  if (!(det > 1e-9 * n * n)) return [mz, 0, 0];
  const cu = (uz * vv - vz * uv) / det, cv = (vz * uu - uz * uv) / det;
  return [mz - cu * mu - cv * mv, cu, cv];
}

/** |z - plane(u, v)| for every sample. */
export function planeResiduals(plane: readonly [number, number, number], u: ArrayLike<number>, v: ArrayLike<number>, z: ArrayLike<number>): Float32Array {
  const [c0, cu, cv] = plane;
  const out = new Float32Array(z.length);
  for (let i = 0; i < z.length; i++) out[i] = Math.abs(z[i] - c0 - cu * u[i] - cv * v[i]);
  return out;
}
