/** The scene from superpixels made ahead of the matte (photoScene, made while the networks run) is the scene made at once. */
import { describe, expect, it } from 'vitest';
import { buildScene, photoScene } from './scene.ts';

const W = 96, H = 128;

describe('buildScene with its photoScene made ahead', () => {
  it('gives the same superpixels, neighbours and per-region matte as one made from the photo and matte at once', () => {
    const rgb = new Uint8Array(W * H * 3), matte = new Uint8Array(W * H);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
      const i = y * W + x, body = Math.abs(x - W / 2) < 20 + y / 8;
      matte[i] = body ? 255 : (x * 7 + y * 3) % 40;
      rgb.set(body ? (y < 60 ? [180, 40, 40] : [30, 40, 90]) : [120 + (x % 9), 190, 120 + (y % 7)], i * 3);
    }
    const photo = photoScene(rgb, 3, W, H);
    const ahead = buildScene(rgb, 3, W, H, matte, photo), atOnce = buildScene(rgb, 3, W, H, matte);
    expect(ahead.regions.length).toBeGreaterThan(10);
    expect(ahead.sp).toBe(photo.sp); // used, not made again
    expect(Buffer.from(ahead.sp.buffer).equals(Buffer.from(atOnce.sp.buffer))).toBe(true);
    expect(ahead.neighbours).toEqual(atOnce.neighbours);
    expect(ahead.regions).toEqual(atOnce.regions);
    expect(Buffer.from(ahead.alpha.buffer).equals(Buffer.from(atOnce.alpha.buffer))).toBe(true);
  });

  it('makes its own superpixels when the photoScene is of another size', () => {
    const rgb = new Uint8Array(W * H * 3).fill(90), matte = new Uint8Array(W * H).fill(255);
    const other = photoScene(new Uint8Array(32 * 32 * 3), 3, 32, 32);
    expect(buildScene(rgb, 3, W, H, matte, other).sp.length).toBe(W * H);
  });
});
