import { describe, expect, it } from 'vitest';
import { locateCrop } from './locate-crop.ts';

/** A photo with a textured pattern, and a cutout taken from it at (x, y) with a transparent border. */
function scene(W: number, H: number, x0: number, y0: number, w: number, h: number) {
  const photo = new Uint8ClampedArray(W * H * 4);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
    const i = (y * W + x) * 4;
    photo.set([(x * 7 + y * 3) % 256, (x * x + y * 11) % 256, (x * y) % 256, 255], i);
  }
  const cut = new Uint8ClampedArray(w * h * 4);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const j = ((y0 + y) * W + x0 + x) * 4;
    const edge = x < 2 || y < 2 || x >= w - 2 || y >= h - 2;
    cut.set([photo[j], photo[j + 1], photo[j + 2], edge ? 0 : 255], (y * w + x) * 4);
  }
  return { photo: { data: photo, width: W, height: H }, cutout: { data: cut, width: w, height: h } };
}

describe('locateCrop', () => {
  it('finds where a trimmed cutout lies in its photo', () => {
    const { photo, cutout } = scene(160, 120, 37, 21, 60, 50);
    expect(locateCrop(photo, cutout)).toEqual({ x: 37, y: 21, width: 60, height: 50 });
  });

  it('tolerates small colour differences and says nothing when the cutout is not from the photo', () => {
    const { photo, cutout } = scene(100, 80, 10, 5, 40, 30);
    for (let i = 0; i < cutout.data.length; i += 4) cutout.data[i] = Math.min(255, cutout.data[i] + 5);
    expect(locateCrop(photo, cutout)).toEqual({ x: 10, y: 5, width: 40, height: 30 });
    for (let i = 0; i < cutout.data.length; i += 4) cutout.data[i + 1] = 255 - cutout.data[i + 1];
    expect(locateCrop(photo, cutout)).toBeUndefined();
  });
});
