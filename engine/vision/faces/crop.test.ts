import { beforeAll, describe, expect, it } from 'vitest';
import type { RasterImage } from '../../image/raster.ts';
import { ModelRegistry } from '../models/registry.ts';
import type { HumanLike } from '../models/human.ts';
import { boxAverage, cropRoi, cropRoiPixels } from './crop.ts';

/** A w x h RGB image whose red channel is x * step, green y * step, blue 7. */
const ramp = (w: number, h: number, step = 10): RasterImage => {
  const data = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) data.set([x * step, y * step, 7], (y * w + x) * 3);
  return { data, width: w, height: h, channels: 3 };
};

describe('boxAverage', () => {
  it('copies the region when f is 1', () => {
    const out = boxAverage(ramp(5, 4), 1, 2, 4, 4, 1, 3, 2);
    expect([...out.slice(0, 3)]).toEqual([10, 20, 7]);
    expect([...out.slice(15, 18)]).toEqual([30, 30, 7]);
  });

  it('averages f x f blocks, partial blocks at the edge over what they hold', () => {
    const out = boxAverage(ramp(5, 4), 0, 0, 5, 4, 2, 3, 2);
    expect([...out.slice(0, 3)]).toEqual([5, 5, 7]); // x 0..1, y 0..1
    expect([...out.slice(6, 9)]).toEqual([40, 5, 7]); // the last column holds x = 4 only
    expect([...out.slice(9, 12)]).toEqual([5, 25, 7]);
  });

  it('shows transparent pixels over white', () => {
    const image: RasterImage = { data: Buffer.from([0, 0, 0, 0, 200, 100, 0, 255]), width: 2, height: 1, channels: 4 };
    expect([...boxAverage(image, 0, 0, 2, 1, 1, 2, 1)]).toEqual([255, 255, 255, 200, 100, 0]);
  });
});

describe('cropRoi', () => {
  let tf: HumanLike['tf'];
  beforeAll(async () => { tf = (await new ModelRegistry().get<HumanLike>('human')).tf; });

  const read = async (t: { data(): Promise<ArrayLike<number>>; dispose(): void }) => { const v = Array.from(await t.data()); t.dispose(); return v; };

  it('samples an upright square exactly at pixel centres', async () => {
    const image = ramp(20, 20);
    // Side 4 at 4 output pixels: output pixel (i, j) is image pixel (8 + i, 6 + j).
    const v = await read(await cropRoi(tf, image, { cx: 10, cy: 8, size: 4, angle: 0 }, 4));
    expect(v[0] * 255).toBeCloseTo(80, 3);
    expect(v[1] * 255).toBeCloseTo(60, 3);
    expect(v[(3 * 4 + 2) * 3] * 255).toBeCloseTo(100, 3); // row 3, column 2
  });

  it('keeps the mean level and position when it shrinks a lot (box-averaged first)', async () => {
    const image = ramp(200, 200, 1);
    // 160 px into 16: shrink 10. Output pixel (i, j) centres on image x = 20 + 10 i + 5, pixel index 24.5 + 10 i:
    // on a linear ramp, block means and bilinear taps give exactly that.
    const v = await read(await cropRoi(tf, image, { cx: 100, cy: 100, size: 160, angle: 0 }, 16));
    for (const i of [0, 7, 15]) expect(v[i * 3] * 255).toBeCloseTo(24.5 + 10 * i, 1);
  });

  it('is black outside the image and follows the angle', async () => {
    const image = ramp(20, 20);
    const v = await read(await cropRoi(tf, image, { cx: 0, cy: 0, size: 4, angle: 0 }, 4));
    expect(v.slice(0, 3)).toEqual([0, 0, 0]);
    // A quarter turn: the crop's x axis runs down the image.
    const t = await read(await cropRoi(tf, image, { cx: 10, cy: 10, size: 4, angle: Math.PI / 2 }, 4));
    const first = t.slice(0, 3).map((c) => c * 255), next = t.slice(3, 6).map((c) => c * 255);
    expect(next[1] - first[1]).toBeCloseTo(10, 3);
    expect(next[0] - first[0]).toBeCloseTo(0, 3);
  });

  it("repeats the image's edge outside it with fill 'edge'", async () => {
    const image = ramp(20, 20);
    // Side 8 centred on the top-left corner: the upper-left quarter lies outside the image.
    const v = await read(await cropRoi(tf, image, { cx: 0, cy: 0, size: 8, angle: 0 }, 8, false, 'edge'));
    const at = (i: number, j: number) => [0, 1, 2].map((c) => v[(j * 8 + i) * 3 + c] * 255);
    const corner = [0, 1, 2].map((c) => image.data[c]);
    for (const [i, j] of [[0, 0], [3, 1], [1, 3]]) at(i, j).forEach((x, c) => expect(x).toBeCloseTo(corner[c], 3));
    // Below the corner, outside on the left only: the image's first column at that row.
    const row6 = [0, 1, 2].map((c) => image.data[(2 * 20) * 3 + c]);
    at(0, 6).forEach((x, c) => expect(x).toBeCloseTo(row6[c], 3));
  });

  it('cropRoiPixels gives its values to the bit: turned, flipped, shrunk a lot, past the edge (black, grey, repeated)', async () => {
    // A photo-like image: noise over a gradient, so every tap differs.
    const w = 301, h = 257, data = Buffer.alloc(w * h * 3);
    let seed = 7;
    for (let i = 0; i < data.length; i++) { seed = (seed * 1103515245 + 12345) >>> 0; data[i] = ((seed >>> 16) & 127) + ((i / 3) % w) / 3; }
    const image: RasterImage = { data, width: w, height: h, channels: 3 };
    const cases: [Parameters<typeof cropRoi>[2], number, boolean, number | 'edge'][] = [
      [{ cx: 150.3, cy: 120.7, size: 180.2, angle: 0.31 }, 64, false, 0],
      [{ cx: 40.1, cy: 30.9, size: 150, angle: -0.5 }, 48, true, 127.5],
      [{ cx: 290, cy: 250, size: 200, angle: 1.2 }, 56, false, 'edge'],
      [{ cx: 150, cy: 128, size: 250, angle: 0.05 }, 24, true, 0],
    ];
    for (const [roi, out, flip, fill] of cases) {
      const viaTf = Float32Array.from(await read(await cropRoi(tf, image, roi, out, flip, fill)));
      expect(cropRoiPixels(image, roi, out, flip, fill)).toEqual(viaTf);
    }
  });
});
