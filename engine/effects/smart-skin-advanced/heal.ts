/**
 * Small-spot healing, as a retoucher's healing brush: each spot is covered by a clean patch of skin from
 * beside it, cloned seamlessly (Pérez et al. 2003: the patch's own texture, shifted by a harmonic
 * membrane so its rim meets the target's rim). The spot takes the skin's real grain and the local shading
 * across it; a plain inpaint (Telea, Navier-Stokes) would leave a smooth smear where pores should be.
 * Planes are Float32Array, row-major, any units (Lab here); all planes of a pixel are healed together.
 */
import { CORE, HOLE } from './tuning.ts';

export interface Spot {
  /** Centre, plane pixels. */
  x: number;
  y: number;
  /** Radius of the lesion, pixels. */
  r: number;
}

export interface HealOptions {
  /** 0..1 per pixel: where a donor patch may come from (the skin, away from features). */
  allowed: Float32Array;
  /** 0..1 per pixel: how much a healed pixel takes its new value (the skin mask); 1 everywhere by default. */
  weight?: Float32Array;
  /** Strength 0..1 (default 1). */
  strength?: number;
}

/**
 * Heals every spot in place. Spots are healed in order, so a later one's donor may be an earlier one's
 * result; donors overlapping any other spot are avoided. Returns how many spots were healed (a spot with
 * no clean donor inside the planes is left alone).
 */
export function healSpots(planes: Float32Array[], w: number, h: number, spots: readonly Spot[], o: HealOptions): number {
  const strength = o.strength ?? 1;
  if (strength <= 0 || spots.length === 0) return 0;
  // Where other spots are: a donor must not carry a blemish along.
  const blocked = new Uint8Array(w * h);
  for (const s of spots) forDisc(s.x, s.y, s.r * HOLE, w, h, (i) => { blocked[i] = 1; });
  let healed = 0;
  for (const s of spots) {
    const R = Math.max(1.5, s.r * HOLE);
    const donor = pickDonor(planes, w, h, s, R, o.allowed, blocked);
    if (!donor) continue;
    cloneInto(planes, w, h, s, R, donor, o.weight, strength);
    healed++;
  }
  return healed;
}

function forDisc(cx: number, cy: number, r: number, w: number, h: number, f: (i: number, d: number) => void): void {
  const x0 = Math.max(0, Math.floor(cx - r)), x1 = Math.min(w - 1, Math.ceil(cx + r));
  const y0 = Math.max(0, Math.floor(cy - r)), y1 = Math.min(h - 1, Math.ceil(cy + r));
  for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) {
    const d = Math.hypot(x - cx, y - cy);
    if (d <= r) f(y * w + x, d);
  }
}

/**
 * The donor offset: among 16 candidates around the spot (two distances, eight directions), one whose disc
 * lies wholly on allowed skin, touches no other spot (if any such), and whose rim matches the target's rim best (the smaller
 * the mismatch, the less the membrane has to bend the patch's shading).
 */
function pickDonor(planes: Float32Array[], w: number, h: number, s: Spot, R: number, allowed: Float32Array, blocked: Uint8Array): [number, number] | null {
  const rimOf = (cx: number, cy: number): number[] | null => {
    const v: number[] = [];
    for (let k = 0; k < 16; k++) {
      const a = (k / 16) * 2 * Math.PI, x = Math.round(cx + (R + 1) * Math.cos(a)), y = Math.round(cy + (R + 1) * Math.sin(a));
      if (x < 0 || y < 0 || x >= w || y >= h) return null;
      for (const p of planes) v.push(p[y * w + x]);
    }
    return v;
  };
  const target = rimOf(s.x, s.y);
  // Best clean donor; failing that (spots crowd a small face), the best donor on skin even if it overlaps one.
  let best: [number, number] | null = null, bestScore = Infinity, fallback: [number, number] | null = null, fallbackScore = Infinity;
  for (const dist of [2.3 * R + 2, 3.2 * R + 3]) {
    for (let k = 0; k < 8; k++) {
      const a = (k / 8) * 2 * Math.PI, dx = Math.round(dist * Math.cos(a)), dy = Math.round(dist * Math.sin(a));
      const cx = s.x + dx, cy = s.y + dy;
      if (cx - R - 2 < 0 || cy - R - 2 < 0 || cx + R + 2 >= w || cy + R + 2 >= h) continue;
      let onSkin = true, clean = true;
      forDisc(cx, cy, R + 1, w, h, (i) => { if (allowed[i] < 0.5) onSkin = false; else if (blocked[i] && Math.hypot(i % w - s.x, Math.floor(i / w) - s.y) > R + 1) clean = false; });
      if (!onSkin) continue;
      const rim = rimOf(cx, cy);
      if (!rim) continue;
      let score = 0;
      if (target) for (let i = 0; i < rim.length; i++) score += Math.abs(rim[i] - target[i]);
      // A nearer donor is likelier to share the spot's lighting and grain.
      score *= dist < 3 * R ? 1 : 1.15;
      if (clean && score < bestScore) { bestScore = score; best = [dx, dy]; }
      if (!clean && score < fallbackScore) { fallbackScore = score; fallback = [dx, dy]; }
    }
  }
  return best ?? fallback;
}

/**
 * Seamless clone of the donor disc (offset dx, dy) into the spot's disc of radius R: out = donor + m, where
 * m is harmonic inside the disc and equals target - donor on its rim (Jacobi-preconditioned SOR). The
 * result fades in from the rim (R) to full at CORE / HOLE of it.
 */
function cloneInto(planes: Float32Array[], w: number, h: number, s: Spot, R: number, [dx, dy]: [number, number], weight: Float32Array | undefined, strength: number): void {
  const x0 = Math.max(1, Math.floor(s.x - R - 1)), x1 = Math.min(w - 2, Math.ceil(s.x + R + 1));
  const y0 = Math.max(1, Math.floor(s.y - R - 1)), y1 = Math.min(h - 2, Math.ceil(s.y + R + 1));
  const bw = x1 - x0 + 1, bh = y1 - y0 + 1, n = bw * bh;
  const inside = new Uint8Array(n), fade = new Float32Array(n);
  for (let y = 0; y < bh; y++) for (let x = 0; x < bw; x++) {
    const d = Math.hypot(x0 + x - s.x, y0 + y - s.y);
    if (d < R) {
      inside[y * bw + x] = 1;
      const core = (CORE / HOLE) * R;
      fade[y * bw + x] = d <= core ? 1 : (R - d) / (R - core);
    }
  }
  const m = new Float32Array(n);
  const iters = Math.min(400, Math.ceil(4 * R) + 20), omega = 1.85;
  for (const p of planes) {
    // Boundary values (and the start inside): target - donor.
    for (let y = 0; y < bh; y++) for (let x = 0; x < bw; x++) {
      const i = (y0 + y) * w + x0 + x;
      m[y * bw + x] = p[i] - p[i + dy * w + dx];
    }
    // Start inside from the rim's mean, so few iterations are needed.
    let rs = 0, rn = 0;
    for (let j = 0; j < n; j++) if (!inside[j]) { rs += m[j]; rn++; }
    const mean = rn ? rs / rn : 0;
    for (let j = 0; j < n; j++) if (inside[j]) m[j] = mean;
    for (let it = 0; it < iters; it++) {
      for (let y = 1; y < bh - 1; y++) for (let x = 1, j = y * bw + 1; x < bw - 1; x++, j++) {
        if (!inside[j]) continue;
        m[j] += omega * ((m[j - 1] + m[j + 1] + m[j - bw] + m[j + bw]) / 4 - m[j]);
      }
    }
    for (let y = 0; y < bh; y++) for (let x = 0; x < bw; x++) {
      const j = y * bw + x;
      if (!inside[j]) continue;
      const i = (y0 + y) * w + x0 + x;
      const k = fade[j] * strength * (weight ? weight[i] : 1);
      if (k <= 0) continue;
      const healedValue = p[i + dy * w + dx] + m[j];
      p[i] += k * (healedValue - p[i]);
    }
  }
}
