import { beforeAll, describe, expect, it } from 'vitest';
import type { HumanLike, TensorLike } from '../models/human.ts';
import { ModelRegistry } from '../models/registry.ts';
import { withMirrors } from './attribute-models.ts';
import { normaliseData } from './attribute-crops.ts';

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

describe('normaliseData', () => {
  type Tf = HumanLike['tf'] & { mul(a: TensorLike, b: number): TensorLike; sub(a: TensorLike, b: TensorLike): TensorLike; reverse(a: TensorLike, axis: number): TensorLike; tensor1d(v: number[]): TensorLike };
  let tf: Tf;
  beforeAll(async () => { tf = (await new ModelRegistry().get<HumanLike>('human')).tf as Tf; });

  it("gives tfjs's values to the bit for 0..255 RGB and for BGR minus the ImageNet means", async () => {
    const n = 4 * 5 * 5 * 3, rgb = new Float32Array(n);
    for (let i = 0; i < n; i++) rgb[i] = Math.fround(((i * 7919) % 256) / 255);
    const x = tf.tensor4d(rgb, [4, 5, 5, 3], 'float32');
    const t = [x, tf.mul(x, 255)];
    expect(normaliseData(rgb, 'rgb255')).toEqual(Float32Array.from(await t[1].data()));
    t.push(tf.reverse(x, 3)); t.push(tf.mul(t[2], 255)); t.push(tf.tensor1d([103.939, 116.779, 123.68])); t.push(tf.sub(t[3], t[4]));
    expect(normaliseData(rgb, 'caffe')).toEqual(Float32Array.from(await t[5].data()));
    tf.dispose(t);
  });
});
