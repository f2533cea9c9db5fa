import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeOnnxModel, type OnnxGraph } from '../vision/models/onnx-proto.ts';
import { openLocalOnnx } from '../vision/models/onnx.ts';
import { catalog } from '../vision/models/catalog.ts';
import { openOptimized, optimizedModelFile, type OptimizedSource } from './optimized-models.ts';

/** Conv → Relu → Conv: a graph onnxruntime rewrites (fusions, a blocked layout) when it optimises. */
function convNet(seed: number): Uint8Array {
  const weights = (n: number) => Float32Array.from({ length: n }, (_, i) => Math.sin(i * 0.37 + seed) * 0.5);
  const graph: OnnxGraph = {
    nodes: [
      { op: 'Conv', inputs: ['x', 'w1', 'b1'], outputs: ['c1'], attrs: { pads: [1, 1, 1, 1] } },
      { op: 'Relu', inputs: ['c1'], outputs: ['r1'] },
      { op: 'Conv', inputs: ['r1', 'w2', 'b2'], outputs: ['y'], attrs: { pads: [1, 1, 1, 1] } },
    ],
    initializers: [
      { name: 'w1', dims: [8, 3, 3, 3], data: weights(8 * 27) },
      { name: 'b1', dims: [8], data: weights(8) },
      { name: 'w2', dims: [2, 8, 3, 3], data: weights(2 * 72) },
      { name: 'b2', dims: [2], data: weights(2) },
    ],
    inputs: [{ name: 'x', dims: [1, 3, 16, 16] }],
    outputs: [{ name: 'y', dims: [1, 2, 16, 16] }],
    opset: 17,
  };
  return encodeOnnxModel(graph);
}

const input = { x: { data: Float32Array.from({ length: 3 * 16 * 16 }, (_, i) => Math.cos(i * 0.11)), dims: [1, 3, 16, 16] } };

const dirs: string[] = [];
function tempDir() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-optimized-'));
  dirs.push(dir);
  return path.join(dir, 'optimized-models');
}

/** The source, as a file the saving process reads, counting how often the engine read its bytes. */
function source(seed = 1): OptimizedSource & { reads: number } {
  const file = path.join(path.dirname(tempDir()), `conv-${seed}.onnx`);
  writeFileSync(file, convNet(seed));
  const s = { id: 'conv-net', identity: `conv ${seed}`, origin: `file:${file}`, reads: 0, bytes: async () => { s.reads++; return convNet(seed); } };
  return s;
}

/** The outputs of the network opened from its bytes, as without a folder. */
async function fromBytes(seed = 1) {
  const net = await openLocalOnnx(convNet(seed), 1);
  try {
    return (await net.run(input, ['y'])).y.data;
  } finally {
    await net.release();
  }
}
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

async function runOnce(dir: string, src: OptimizedSource) {
  const net = await openOptimized(dir, src, 1);
  try {
    return (await net.run(input, ['y'])).y.data;
  } finally {
    await net.release();
  }
}

describe('optimised models kept in the data folder', () => {
  it('saves the optimised graph in another process at the first open and opens that file, with the same outputs', async () => {
    const dir = tempDir();
    const first = source();
    const saved = await runOnce(dir, first);
    expect(first.reads).toBe(0);
    expect(readdirSync(dir)).toEqual([path.basename(optimizedModelFile(dir, first, 1))]);
    expect(Array.from(saved)).toEqual(Array.from(await fromBytes()));

    const again = source();
    expect(Array.from(await runOnce(dir, again))).toEqual(Array.from(saved));
    expect(again.reads).toBe(0);
  });

  it('saves anew when the model changes, and deletes the copy of the old one', async () => {
    const dir = tempDir();
    const old = await runOnce(dir, source(1));
    const changed = source(2);
    const out = await runOnce(dir, changed);
    expect(Array.from(out)).not.toEqual(Array.from(old));
    expect(Array.from(out)).toEqual(Array.from(await fromBytes(2)));
    expect(readdirSync(dir)).toEqual([path.basename(optimizedModelFile(dir, changed, 1))]);
  });

  it('deletes a copy that does not open (a damaged file), answers from the weights, and saves anew next time', async () => {
    const dir = tempDir();
    const expected = await runOnce(dir, source());
    const file = optimizedModelFile(dir, source(), 1);
    writeFileSync(file, 'not an onnx model');
    const src = source();
    expect(Array.from(await runOnce(dir, src))).toEqual(Array.from(expected));
    expect(src.reads).toBe(1);
    expect(readdirSync(dir)).toEqual([]);
    const next = source();
    expect(Array.from(await runOnce(dir, next))).toEqual(Array.from(expected));
    expect(next.reads).toBe(0);
    expect(readdirSync(dir)).toEqual([path.basename(file)]);
  });

  it('answers from the weights when the saving process fails', async () => {
    const dir = tempDir();
    const src = { ...source(), origin: 'catalog:no-such-network' };
    let reads = 0;
    src.bytes = async () => { reads++; return convNet(1); };
    expect(Array.from(await runOnce(dir, src))).toEqual(Array.from(await fromBytes()));
    expect(reads).toBe(1);
    expect(readdirSync(dir)).toEqual([]); // no temporary file left
  });

  it('still opens the network when the folder cannot be made', async () => {
    // A file where the folder should be: unwritable even for root, who ignores permissions.
    const parent = path.dirname(tempDir());
    mkdirSync(parent, { recursive: true });
    const blocked = path.join(parent, 'blocked');
    writeFileSync(blocked, 'a file, not a folder');
    const src = source();
    const out = await runOnce(path.join(blocked, 'optimized-models'), src);
    expect(Array.from(out)).toEqual(Array.from(await fromBytes()));
    expect(src.reads).toBe(1);
  });
});

describe('an optimised copy of one variant of a family', () => {
  it('is saved by the child process from `catalog:id@variant` and answers as the network opened from its bytes', { timeout: 120_000 }, async () => {
    const entry = catalog['bisenet-face-parsing'];
    const id = 'bisenet-face-parsing@64';
    const bytes = () => entry.onnxVariant!('64');
    const input = { input: { data: Float32Array.from({ length: 64 * 64 * 3 }, (_, i) => (Math.sin(i * 0.013) + 1) / 2), dims: [1, 64, 64, 3] } };
    const fromBytes = await openLocalOnnx(await bytes(), 1);
    const expected = await fromBytes.run(input, ['logits']);
    await fromBytes.release();
    const net = await openOptimized(tempDir(), { id, identity: await entry.onnxVariantIdentity!('64'), origin: `catalog:${id}`, bytes: async () => { throw new Error('read the bytes instead of the copy'); } }, 1);
    const got = await net.run(input, ['logits']);
    await net.release();
    expect(got.logits.dims).toEqual(expected.logits.dims);
    expect(Array.from(got.logits.data)).toEqual(Array.from(expected.logits.data));
  });
});
