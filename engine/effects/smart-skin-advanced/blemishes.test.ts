import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../image/random.ts';
import { findBlemishes } from './blemishes.ts';
import { FIND } from './tuning.ts';

/**
 * Skin planes at 4 px/mm, 240 x 160 px (60 x 40 mm): L 65 and a 14 with a little grain; on the right a
 * stubble-like field of dark dots 1.5 mm apart; on the left one isolated dark spot (2 mm, 12 L units).
 */
const W = 240, H = 160, MM = 4;
function skin() {
  const rand = seededRandom(7);
  const L = new Float32Array(W * H), A = new Float32Array(W * H), mask = new Float32Array(W * H).fill(1);
  for (let i = 0; i < L.length; i++) { L[i] = 65 + (rand() - 0.5) * 2; A[i] = 14 + (rand() - 0.5); }
  const dot = (cx: number, cy: number, s: number, depth: number) => {
    for (let y = Math.max(0, Math.floor(cy - 3 * s)); y <= Math.min(H - 1, cy + 3 * s); y++) for (let x = Math.max(0, Math.floor(cx - 3 * s)); x <= Math.min(W - 1, cx + 3 * s); x++) {
      L[y * W + x] -= depth * Math.exp(-((x - cx) ** 2 + (y - cy) ** 2) / (2 * s * s));
    }
  };
  for (let y = 30; y < 130; y += 6) for (let x = 140; x < 220; x += 6) dot(x + (rand() - 0.5) * 2, y + (rand() - 0.5) * 2, 1.6, 12);
  dot(60, 80, 2, 12);
  return { L, A, mask };
}

describe('findBlemishes', () => {
  it('finds an isolated spot, and fewer in a field of stubble-like dots that the skin around varies by as much', () => {
    const { L, A, mask } = skin();
    const { spots } = findBlemishes(L, A, mask, W, H, MM);
    expect(spots.some((s) => s.kind === 'dark' && Math.hypot(s.x - 60, s.y - 80) < MM)).toBe(true);
    const k = FIND.local.k;
    let global: number;
    try {
      FIND.local.k = 0;
      global = findBlemishes(L, A, mask, W, H, MM).spots.filter((s) => s.x > 120).length;
    } finally { FIND.local.k = k; }
    // Against the face's skin at large most of the 180 dots stand out (97); against the skin around them
    // about half as many (49): a regular field is the hard case, real stubble and creases vary more.
    expect(global).toBeGreaterThan(60);
    expect(spots.filter((s) => s.x > 120).length).toBeLessThan(0.6 * global);
  });
});
