import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { humanModel, type HumanLike, type TensorLike } from './human.ts';
import { openLocalOnnx, type OnnxNet } from './onnx.ts';
import { ModelRegistry } from './registry.ts';
import { readTfGraph, type TfGraph, type TfNode } from './tf-graph.ts';
import { RVM_ONNX_INPUT, RVM_ONNX_OUTPUT, rvmModelJson, rvmToOnnx } from './rvm-onnx.ts';
import { foldBinary, foldStridedSlice } from './tf-fold.ts';

const fixtures = fileURLToPath(new URL('../../test/fixtures/', import.meta.url));

type Tf = Record<string, (...a: unknown[]) => TensorLike> & { dispose(t: unknown): void; image: { resizeBilinear(...a: unknown[]): TensorLike } };
let human: HumanLike;
let tf: Tf;
let graph: TfGraph;

beforeAll(async () => {
  human = await new ModelRegistry().get<HumanLike>('human');
  tf = human.tf as unknown as Tf;
  graph = await readTfGraph(rvmModelJson());
});

const random = (n: number, seed: number) => {
  let s = seed;
  return Float32Array.from({ length: n }, () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1);
};
const maxDiff = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
};
const attr = {
  ints: (v: number[]) => ({ list: { i: v.map(String) } }),
  s: (v: string) => ({ s: Buffer.from(v).toString('base64') }),
};

describe('RVM on onnxruntime', () => {
  it('reads the quantized weights as tfjs dequantizes them', async () => {
    const model = await humanModel(human, 'rvm.json') as unknown as { weights: Record<string, TensorLike[]> };
    let checked = 0;
    for (const [name, [t]] of Object.entries(model.weights)) {
      const w = graph.weights.get(name);
      if (!w || t.dtype !== 'float32') continue;
      expect(w.shape).toEqual(t.shape);
      expect(maxDiff(w.data, await t.data())).toBe(0);
      if (++checked === 40) break;
    }
    expect(checked).toBe(40);
  });

  // One network for every size: sizes as person.ts makes them, landscape at the hair matte's side, portrait
  // at the person matte's, and one whose bottleneck is odd on both axes.
  let net: OnnxNet;
  for (const [w, h] of [[256, 176], [384, 512], [208, 272]]) {
    it(`gives tfjs's alpha on a photo at ${w}x${h}`, async () => {
      const model = await humanModel(human, 'rvm.json');
      const rgb = await sharp(path.join(fixtures, 'obama_official_portrait.jpg')).removeAlpha().resize(w, h, { fit: 'fill' }).raw().toBuffer();
      const src = Float32Array.from(rgb, (v) => v / 255);
      const t: Record<string, TensorLike> = {
        src: tf.tensor4d(src, [1, h, w, 3], 'float32'), ratio: tf.scalar(0.5),
        r1i: tf.scalar(0), r2i: tf.scalar(0), r3i: tf.scalar(0), r4i: tf.scalar(0),
      };
      const out = await model.executeAsync({ src: t.src, r1i: t.r1i, r2i: t.r2i, r3i: t.r3i, r4i: t.r4i, downsample_ratio: t.ratio }, ['pha']);
      const pha = Array.isArray(out) ? out[0] : out;
      const want = await pha.data();
      tf.dispose([...Object.values(t), pha]);
      net ??= await openLocalOnnx(rvmToOnnx(graph), 1);
      const got = await net.run({ [RVM_ONNX_INPUT]: { data: src, dims: [1, h, w, 3] } }, [RVM_ONNX_OUTPUT]);
      expect(got[RVM_ONNX_OUTPUT].dims).toEqual([1, h, w, 1]);
      expect(maxDiff(got[RVM_ONNX_OUTPUT].data, want)).toBeLessThan(2e-4);
      // A person: the matte is neither empty nor full.
      const mean = Array.from(want).reduce((s, v) => s + v, 0) / want.length;
      expect(mean).toBeGreaterThan(0.2);
      expect(mean).toBeLessThan(0.9);
    }, 60_000);
  }

  it('refuses a graph with an op it does not know', () => {
    const nodes = graph.nodes.map((n) => (n.op === 'Tanh' ? { ...n, op: 'Softsign' } : n));
    expect(() => rvmToOnnx({ ...graph, nodes })).toThrow(/op Softsign .* is not supported/);
  });
});

describe('the folding and lowering RVM needs', () => {
  it('turns SpaceToBatchND, a VALID depthwise convolution and BatchToSpaceND into one dilated convolution', async () => {
    // Odd sides, so SpaceToBatch pads and BatchToSpace crops; the explicit pad as RVM's encoder has it.
    const [h, w, c] = [13, 10, 3];
    const pads = [[0, 0], [2, 2], [2, 2], [0, 0]], block = [2, 2];
    const padded = [h + 4, w + 4], extra = padded.map((s) => (2 - (s % 2)) % 2);
    const kernel = random(3 * 3 * c, 7);
    const i32 = (shape: number[], v: number[]) => ({ shape, data: Int32Array.from(v) });
    const weights: TfGraph['weights'] = new Map<string, { shape: number[]; data: Float32Array | Int32Array }>([
      ['pads', i32([4, 2], pads.flat())], ['block', i32([2], block)],
      ['s2b_pads', i32([2, 2], [0, extra[0], 0, extra[1]])], ['crops', i32([2, 2], [0, extra[0], 0, extra[1]])],
      ['kernel', { shape: [3, 3, c, 1], data: kernel }],
    ]);
    const nodes: TfNode[] = [
      { name: 'src', op: 'Placeholder' },
      ...['pads', 'block', 's2b_pads', 'crops', 'kernel'].map((name) => ({ name, op: 'Const' })),
      { name: 'pad', op: 'Pad', input: ['src', 'pads'] },
      { name: 's2b', op: 'SpaceToBatchND', input: ['pad', 'block', 's2b_pads'] },
      { name: 'conv', op: 'DepthwiseConv2dNative', input: ['s2b', 'kernel'], attr: { strides: attr.ints([1, 1, 1, 1]), padding: attr.s('VALID'), data_format: attr.s('NHWC') } },
      { name: 'Identity_1', op: 'BatchToSpaceND', input: ['conv', 'block', 'crops'] },
    ];
    const x = random(h * w * c, 3);
    const t: Record<string, TensorLike> = { x: tf.tensor4d(x, [1, h, w, c], 'float32'), k: tf.tensor4d(kernel, [3, 3, c, 1], 'float32') };
    t.pad = tf.pad(t.x, pads);
    t.s2b = tf.spaceToBatchND(t.pad, block, [[0, extra[0]], [0, extra[1]]]);
    t.conv = tf.depthwiseConv2d(t.s2b, t.k, 1, 'valid');
    t.out = tf.batchToSpaceND(t.conv, block, [[0, extra[0]], [0, extra[1]]]);
    const want = await t.out.data();
    const shape = t.out.shape;
    tf.dispose(t);
    // The converter's input is RGB: three channels, as here.
    const net = await openLocalOnnx(rvmToOnnx({ nodes, weights }), 1);
    const got = await net.run({ [RVM_ONNX_INPUT]: { data: x, dims: [1, h, w, c] } }, [RVM_ONNX_OUTPUT]);
    expect(got[RVM_ONNX_OUTPUT].dims).toEqual(shape);
    expect(maxDiff(got[RVM_ONNX_OUTPUT].data, want)).toBeLessThan(1e-5);
  });

  it('keeps the branch a Switch takes for the ratio and drops the other', async () => {
    const weights: TfGraph['weights'] = new Map([['one', { shape: [], data: Float32Array.of(1) }], ['three', { shape: [], data: Float32Array.of(3) }]]);
    const nodes: TfNode[] = [
      { name: 'src', op: 'Placeholder' }, { name: 'downsample_ratio', op: 'Placeholder' },
      { name: 'one', op: 'Const' }, { name: 'three', op: 'Const' },
      { name: 'eq', op: 'Equal', input: ['downsample_ratio', 'one'] },
      { name: 'pred', op: 'Squeeze', input: ['eq'] },
      { name: 'sw', op: 'Switch', input: ['src', 'pred'] },
      // ratio 1: the input as it is; else: times three (an op only that branch has).
      { name: 'then', op: 'Identity', input: ['sw:1'] },
      { name: 'else', op: 'Mul', input: ['sw', 'three'] },
      { name: 'Identity_1', op: 'Merge', input: ['then', 'else'] },
    ];
    const x = random(4 * 4 * 3, 5);
    for (const ratio of [1, 0.5]) {
      const net = await openLocalOnnx(rvmToOnnx({ nodes, weights }, ratio), 1);
      const got = (await net.run({ [RVM_ONNX_INPUT]: { data: x, dims: [1, 4, 4, 3] } }, [RVM_ONNX_OUTPUT]))[RVM_ONNX_OUTPUT].data;
      expect(maxDiff(got, x.map((v) => v * (ratio === 1 ? 1 : 3)))).toBeLessThan(1e-6);
    }
  });

  it('folds the zero recurrent state away: [x, 0] into a convolution, x * 0, 0 + y', async () => {
    const [h, w] = [9, 7];
    const kernel = random(3 * 3 * 6 * 3, 17), bias = random(3, 19);
    const weights: TfGraph['weights'] = new Map<string, { shape: number[]; data: Float32Array | Int32Array }>([
      ['axis', { shape: [], data: Int32Array.of(-1) }], ['kernel', { shape: [3, 3, 6, 3], data: kernel }], ['bias', { shape: [3], data: bias }],
    ]);
    const conv = { strides: attr.ints([1, 1, 1, 1]), padding: attr.s('SAME'), data_format: attr.s('NHWC'), dilations: attr.ints([1, 1, 1, 1]), fused_ops: { list: { s: [Buffer.from('BiasAdd').toString('base64')] } } };
    const nodes: TfNode[] = [
      { name: 'src', op: 'Placeholder' }, { name: 'r1i', op: 'Placeholder' },
      ...['axis', 'kernel', 'bias'].map((name) => ({ name, op: 'Const' })),
      { name: 'shape', op: 'Shape', input: ['src'] },
      { name: 'state', op: 'BroadcastTo', input: ['r1i', 'shape'] },
      { name: 'cat', op: 'ConcatV2', input: ['src', 'state', 'axis'] },
      { name: 'conv', op: '_FusedConv2D', input: ['cat', 'kernel', 'bias'], attr: conv },
      { name: 'gated', op: 'Mul', input: ['src', 'state'] },
      { name: 'Identity_1', op: 'AddV2', input: ['gated', 'conv'] },
    ];
    const x = random(h * w * 3, 23);
    const t: Record<string, TensorLike> = { x: tf.tensor4d(x, [1, h, w, 3], 'float32'), k: tf.tensor4d(kernel, [3, 3, 6, 3], 'float32'), b: tf.tensor1d(bias) };
    t.zero = tf.zerosLike(t.x);
    t.cat = tf.concat([t.x, t.zero], 3);
    t.conv = tf.conv2d(t.cat, t.k, 1, 'same');
    t.out = tf.add(t.conv, t.b);
    const want = await t.out.data();
    tf.dispose(t);
    const bytes = rvmToOnnx({ nodes, weights });
    const net = await openLocalOnnx(bytes, 1);
    const got = await net.run({ [RVM_ONNX_INPUT]: { data: x, dims: [1, h, w, 3] } }, [RVM_ONNX_OUTPUT]);
    expect(maxDiff(got[RVM_ONNX_OUTPUT].data, want)).toBeLessThan(1e-5);
  });

  it('resizes by the scale and crops to the size the graph computes from shapes, at any input size', async () => {
    const i32 = (shape: number[], v: number[]) => ({ shape, data: Int32Array.from(v) });
    const weights: TfGraph['weights'] = new Map<string, { shape: number[]; data: Float32Array | Int32Array }>([
      ['b1', i32([1], [1])], ['e3', i32([1], [3])], ['b2', i32([1], [2])], ['s1', i32([1], [1])], ['two', i32([2], [2, 2])],
      ['minus1', i32([], [-1])], ['zeros', i32([4], [0, 0, 0, 0])],
    ]);
    const pool = { ksize: attr.ints([1, 2, 2, 1]), strides: attr.ints([1, 2, 2, 1]), padding: attr.s('SAME'), data_format: attr.s('NHWC') };
    const nodes: TfNode[] = [
      { name: 'src', op: 'Placeholder' },
      ...['b1', 'e3', 'b2', 's1', 'two', 'minus1', 'zeros'].map((name) => ({ name, op: 'Const' })),
      { name: 'pool', op: 'AvgPool', input: ['src'], attr: pool },
      { name: 'pshape', op: 'Shape', input: ['pool'] },
      { name: 'phw', op: 'StridedSlice', input: ['pshape', 'b1', 'e3', 's1'] },
      { name: 'size', op: 'Mul', input: ['phw', 'two'] },
      { name: 'up', op: 'ResizeBilinear', input: ['pool', 'size'], attr: { half_pixel_centers: { b: true }, align_corners: { b: false } } },
      { name: 'sshape', op: 'Shape', input: ['src'] },
      { name: 'sh', op: 'StridedSlice', input: ['sshape', 'b1', 'b2', 's1'], attr: { shrink_axis_mask: { i: '1' } } },
      { name: 'sw', op: 'StridedSlice', input: ['sshape', 'b2', 'e3', 's1'], attr: { shrink_axis_mask: { i: '1' } } },
      { name: 'crop', op: 'Pack', input: ['minus1', 'sh', 'sw', 'minus1'] },
      { name: 'Identity_1', op: 'Slice', input: ['up', 'zeros', 'crop'] },
    ];
    // One network for both sizes; odd sides, so the pool pads and the crop cuts.
    const net = await openLocalOnnx(rvmToOnnx({ nodes, weights }), 1);
    for (const [h, w] of [[13, 10], [9, 16]]) {
      const x = random(h * w * 3, h * w);
      const t: Record<string, TensorLike> = { x: tf.tensor4d(x, [1, h, w, 3], 'float32') };
      t.pool = tf.avgPool(t.x, 2, 2, 'same');
      const [ph, pw] = t.pool.shape.slice(1, 3);
      t.up = tf.image.resizeBilinear(t.pool, [2 * ph, 2 * pw], false, true);
      t.out = tf.slice(t.up, [0, 0, 0, 0], [1, h, w, 3]);
      const want = await t.out.data();
      tf.dispose(t);
      const got = await net.run({ [RVM_ONNX_INPUT]: { data: x, dims: [1, h, w, 3] } }, [RVM_ONNX_OUTPUT]);
      expect(got[RVM_ONNX_OUTPUT].dims).toEqual([1, h, w, 3]);
      expect(maxDiff(got[RVM_ONNX_OUTPUT].data, want)).toBeLessThan(1e-5);
    }
  });

  it('folds strided slices and broadcast arithmetic on constants as tfjs computes them', async () => {
    const v = { kind: 'const' as const, shape: [3, 4], data: Int32Array.from({ length: 12 }, (_, i) => i * 7 - 20) };
    const cases: [number[], number[], number[], { begin: number; end: number; shrink: number }][] = [
      [[1, 0], [3, 4], [1, 1], { begin: 0, end: 0, shrink: 0 }],
      [[0, 1], [0, 3], [1, 2], { begin: 1, end: 1, shrink: 0 }],
      [[-1, 0], [0, 0], [1, 1], { begin: 0, end: 2, shrink: 1 }],
      [[2, -1], [0, 0], [-1, -1], { begin: 0, end: 3, shrink: 0 }],
    ];
    for (const [b, e, s, m] of cases) {
      // As floats: tfjs-wasm's strided slice misreads int32 tensors (the values are small integers, exact either way).
      const t = tf.tensor(Array.from(v.data), v.shape, 'float32');
      const r = tf.stridedSlice(t, b, e, s, m.begin, m.end, 0, 0, m.shrink);
      const got = foldStridedSlice(v, Int32Array.from(b), Int32Array.from(e), Int32Array.from(s), { ...m, ellipsis: 0, newAxis: 0 });
      expect(got.shape).toEqual(r.shape);
      expect([...got.data]).toEqual(Array.from(await r.data()));
      tf.dispose([t, r]);
    }
    const a = { kind: 'const' as const, shape: [2, 1, 3], data: random(6, 11) }, c = { kind: 'const' as const, shape: [4, 1], data: random(4, 13) };
    const ta = tf.tensor(Array.from(a.data), a.shape), tc = tf.tensor(Array.from(c.data), c.shape), tm = tf.mul(ta, tc);
    const got = foldBinary(a, c, (x, y) => x * y);
    expect(got.shape).toEqual(tm.shape);
    expect(maxDiff(got.data, await tm.data())).toBeLessThan(1e-6);
    tf.dispose([ta, tc, tm]);
  });
});
