import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ModelRegistry } from './registry.ts';
import { decodeImage } from '../../image/decode.ts';
import { readFileSync } from 'node:fs';
import { isnetAtSide } from './isnet-size.ts';
import { isnetAt, predictMatte, type IsnetModel } from './isnet.ts';
import { readIsnetOnnx } from './isnet-weights.ts';

const fixtures = fileURLToPath(new URL('../../test/fixtures/', import.meta.url));

describe('ISNet at another input side', () => {
  let onnx: Buffer;
  beforeAll(async () => { onnx = await readIsnetOnnx('medium'); });

  it('refuses a side that is not a multiple of 64', () => {
    for (const side of [0, 500, 1000, 32]) expect(() => isnetAtSide(onnx, side)).toThrow(/multiple of 64/);
  });

  it('at 512 finds the same subject as at 1024 (a portrait: the person, IoU of the mattes >= 0.97)', async () => {
    const models = new ModelRegistry({ threads: 2 });
    const model = await models.get<IsnetModel>('isnet-medium');
    const small = await isnetAt(model, 512);
    expect(small.size).toBe(512);
    expect(await isnetAt(model, 512)).toBe(small); // one session per side
    const image = await decodeImage(readFileSync(path.join(fixtures, 'obama_official_portrait.jpg')), 'jpeg', 1e8);
    const [a, b] = [await predictMatte(model, image), await predictMatte(small, image)];
    expect([b.width, b.height]).toEqual([512, 512]);
    // Compare on the 512 grid: each cell of b against the 2x2 cells of a it covers (their mean).
    let inter = 0, union = 0, fg = 0;
    for (let y = 0; y < 512; y++) {
      for (let x = 0; x < 512; x++) {
        const i = 2 * y * 1024 + 2 * x;
        const av = (a.data[i] + a.data[i + 1] + a.data[i + 1024] + a.data[i + 1025]) / 4 >= 128, bv = b.data[y * 512 + x] >= 128;
        if (av && bv) inter++;
        if (av || bv) union++;
        if (bv) fg++;
      }
    }
    expect(fg / 512 ** 2).toBeGreaterThan(0.2);
    expect(inter / union).toBeGreaterThanOrEqual(0.97);
  });
});
