/**
 * The face's own light, fitted on its bare skin and carried under a dense beard. A dense beard hides the
 * skin's shading; the skin around it (cheeks, nose, upper neck) shows how this photo's light falls on a
 * surface of each orientation. So the face mesh's surface normals are rasterised over the window, the bare
 * skin's log lightness is fitted as a low-order spherical-harmonic function of the normal (the Lambertian
 * light of a distant environment: Basri & Jacobs 2003, Ramamoorthi & Hanrahan 2001), robustly (a nose's
 * highlight, a nostril's shadow), and the fit gives the chin, the jaw's roll-off and the hollow under the
 * lower lip the light they would have. What the fit misses at the hole's rim (the skin's own colour and tone
 * there) is carried across by a membrane, so the shading meets the skin around without a seam.
 */
import type { Rect } from '../../image/rect.ts';
import { faceMeshTables } from '../../vision/models/human.ts';
import { rasterPairs, type P3 } from '../../vision/regions/uv-map.ts';

/** Unit surface normals (toward the camera: nz > 0) over a grid; NaN off the mesh. */
export interface NormalField { nx: Float32Array; ny: Float32Array; nz: Float32Array }

/**
 * The mesh's normals over `win` sampled every `step` pixels (a grid of ceil(w / step) x ceil(h / step)
 * cells, each cell's centre): per-vertex normals (area-weighted sums of the triangles' normals) interpolated
 * over the triangles, nearest surface first.
 */
export function meshNormals(mesh: readonly P3[], win: Rect, step: number): NormalField {
  const { triangles } = faceMeshTables();
  const pts = mesh.slice(0, 468);
  const acc = pts.map(() => [0, 0, 0]);
  for (let t = 0; t < triangles.length; t += 3) {
    const a = pts[triangles[t]], b = pts[triangles[t + 1]], c = pts[triangles[t + 2]];
    const ux = b[0] - a[0], uy = b[1] - a[1], uz = b[2] - a[2], vx = c[0] - a[0], vy = c[1] - a[1], vz = c[2] - a[2];
    let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    // The mesh's z grows away from the camera: a normal facing the camera has negative z there.
    if (nz > 0) { nx = -nx; ny = -ny; nz = -nz; }
    for (const k of [triangles[t], triangles[t + 1], triangles[t + 2]]) { acc[k][0] += nx; acc[k][1] += ny; acc[k][2] += nz; }
  }
  const unit = acc.map(([x, y, z]) => { const l = Math.hypot(x, y, z) || 1; return [x / l, y / l, -z / l]; });
  const gw = Math.ceil(win.w / step), gh = Math.ceil(win.h / step);
  // Onto the grid: cell (i, j) covers pixels [i*step, (i+1)*step); rasterPairs samples cell centres.
  const xy: P3[] = pts.map(([x, y, z]) => [(x - win.x0) / step, (y - win.y0) / step, z]);
  const grid = { x0: 0, y0: 0, w: gw, h: gh };
  const [nx, ny] = rasterPairs(xy, triangles, unit.map(([x, y]) => [x, y]), grid);
  const [nz] = rasterPairs(xy, triangles, unit.map(([, , z]) => [z, 0]), grid);
  for (let i = 0; i < nx.length; i++) {
    const l = Math.hypot(nx[i], ny[i], nz[i]);
    if (l > 0) { nx[i] /= l; ny[i] /= l; nz[i] /= l; }
  }
  return { nx, ny, nz };
}

const MAX_CELLS = 3000;

/** The spherical-harmonic basis at a normal: 4 terms (order 1) or 9 (order 2), unnormalised. */
function basis(x: number, y: number, z: number, order: number, out: Float64Array): void {
  out[0] = 1; out[1] = x; out[2] = y; out[3] = z;
  if (order >= 2) { out[4] = x * y; out[5] = x * z; out[6] = y * z; out[7] = x * x - y * y; out[8] = 3 * z * z - 1; }
}

/**
 * Robust least squares (iteratively reweighted, Huber at `huber`) of `values` on the SH basis of the
 * normals at the cells where `weight` > 0, with a ridge of `ridge` on the terms past the constant. Returns
 * the coefficients, or null with too few cells or a singular system.
 */
export function fitShading(values: Float32Array, weight: Float32Array, normals: NormalField, order: number, o: { huber: number; ridge: number; iterations?: number }): Float64Array | null {
  const k = order >= 2 ? 9 : 4;
  const all: number[] = [];
  for (let i = 0; i < values.length; i++) if (weight[i] > 0 && normals.nx[i] === normals.nx[i]) all.push(i);
  if (all.length < 4 * k) return null;
  // A few thousand cells pin nine coefficients: an even subsample of the rest.
  const stride = Math.max(1, Math.ceil(all.length / MAX_CELLS));
  const idx = stride === 1 ? all : all.filter((_, j) => j % stride === 0);
  const phi = new Float64Array(k);
  const rows = idx.map((i) => { basis(normals.nx[i], normals.ny[i], normals.nz[i], order, phi); return Float64Array.from(phi); });
  const robust = new Float64Array(idx.length).fill(1);
  let coef: Float64Array | null = null;
  for (let it = 0; it < (o.iterations ?? 6); it++) {
    const A = new Float64Array(k * k), b = new Float64Array(k);
    let wsum = 0;
    idx.forEach((i, r) => {
      const w = weight[i] * robust[r], row = rows[r];
      wsum += w;
      for (let p = 0; p < k; p++) { b[p] += w * row[p] * values[i]; for (let q = 0; q < k; q++) A[p * k + q] += w * row[p] * row[q]; }
    });
    for (let p = 1; p < k; p++) A[p * k + p] += o.ridge * wsum;
    const next = solve(A, b, k);
    if (!next) return coef;
    coef = next;
    idx.forEach((i, r) => {
      let f = 0;
      for (let p = 0; p < k; p++) f += coef![p] * rows[r][p];
      const e = Math.abs(values[i] - f);
      robust[r] = e <= o.huber ? 1 : o.huber / e;
    });
  }
  return coef;
}

/** The fitted shading at each cell with a normal; NaN elsewhere. */
export function evalShading(coef: Float64Array, normals: NormalField, order: number): Float32Array {
  const k = coef.length, phi = new Float64Array(9), out = new Float32Array(normals.nx.length).fill(NaN);
  for (let i = 0; i < out.length; i++) {
    if (normals.nx[i] !== normals.nx[i]) continue;
    basis(normals.nx[i], normals.ny[i], normals.nz[i], order, phi);
    let f = 0;
    for (let p = 0; p < k; p++) f += coef[p] * phi[p];
    out[i] = f;
  }
  return out;
}

/** Gaussian elimination with partial pivoting on a small dense system; null when singular. */
function solve(A: Float64Array, b: Float64Array, k: number): Float64Array | null {
  const M = Float64Array.from(A), x = Float64Array.from(b);
  for (let c = 0; c < k; c++) {
    let p = c;
    for (let r = c + 1; r < k; r++) if (Math.abs(M[r * k + c]) > Math.abs(M[p * k + c])) p = r;
    if (Math.abs(M[p * k + c]) < 1e-12) return null;
    if (p !== c) { for (let q = 0; q < k; q++) [M[c * k + q], M[p * k + q]] = [M[p * k + q], M[c * k + q]]; [x[c], x[p]] = [x[p], x[c]]; }
    for (let r = c + 1; r < k; r++) {
      const f = M[r * k + c] / M[c * k + c];
      if (f === 0) continue;
      for (let q = c; q < k; q++) M[r * k + q] -= f * M[c * k + q];
      x[r] -= f * x[c];
    }
  }
  for (let c = k - 1; c >= 0; c--) {
    let s = x[c];
    for (let q = c + 1; q < k; q++) s -= M[c * k + q] * x[q];
    x[c] = s / M[c * k + c];
  }
  return x;
}
