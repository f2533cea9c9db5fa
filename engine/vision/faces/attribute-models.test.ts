import { describe, expect, it } from 'vitest';
import { withMirrors } from './attribute-models.ts';

describe('withMirrors', () => {
  it('appends each image with its rows reversed, channels kept in order', () => {
    // Two 2 x 3 images, 2 channels: value = image * 100 + row * 10 + column, channel c adds 0.5 c.
    const [n, h, w, c] = [2, 2, 3, 2];
    const data = new Float32Array(n * h * w * c);
    for (let b = 0; b < n; b++) for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) for (let k = 0; k < c; k++) data[((b * h + y) * w + x) * c + k] = b * 100 + y * 10 + x + 0.5 * k;
    const out = withMirrors(data, [n, h, w, c]);
    expect(out.length).toBe(2 * data.length);
    expect([...out.subarray(0, data.length)]).toEqual([...data]);
    const at = (b: number, y: number, x: number, k: number) => out[((b * h + y) * w + x) * c + k];
    // Mirror of image 1, row 1: columns 2, 1, 0.
    expect([0, 1, 2].map((x) => at(n + 1, 1, x, 0))).toEqual([112, 111, 110]);
    expect(at(n, 0, 0, 1)).toBe(2.5);
  });
});
