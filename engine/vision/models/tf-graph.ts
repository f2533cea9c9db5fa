/**
 * TensorFlow graph models as tfjs ships them (model.json and weight shards), read for conversion to ONNX
 * (bisenet-onnx.ts, faceres-onnx.ts, rvm-onnx.ts): the nodes and float weights, and the layout helpers
 * the converters share (TF's NHWC, SAME padding and HWIO kernels against ONNX's NCHW and OIHW).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export interface TfNode { name: string; op: string; input?: string[]; attr?: Record<string, TfAttr> }
export interface TfAttr { s?: string; i?: string; b?: boolean; f?: number; list?: { i?: string[]; s?: string[] } }
interface TfModelJson {
  modelTopology: { node: TfNode[] };
  weightsManifest: { paths: string[]; weights: { name: string; shape: number[]; dtype: string; quantization?: Quantization }[] }[];
}

/** tfjs's affine weight quantization: each stored byte (uint8) or pair (uint16) q stands for q * scale + min. */
interface Quantization { dtype: string; min?: number; scale?: number }

/** The tfjs graph as read from node_modules (bools as 0/1 in an Int32Array). */
export interface TfGraph { nodes: TfNode[]; weights: Map<string, { shape: number[]; data: Float32Array | Int32Array }> }

/** Reads model.json and its shards. */
export async function readTfGraph(modelJson: string): Promise<TfGraph> {
  const json = JSON.parse(await readFile(modelJson, 'utf8')) as TfModelJson;
  const dir = path.dirname(modelJson);
  const weights = new Map<string, { shape: number[]; data: Float32Array | Int32Array }>();
  for (const group of json.weightsManifest) {
    const buf = Buffer.concat(await Promise.all(group.paths.map((p) => readFile(path.join(dir, p)))));
    let o = 0;
    for (const w of group.weights) {
      const n = w.shape.reduce((a, b) => a * b, 1);
      const q = w.quantization;
      let data: Float32Array | Int32Array, size: number;
      if (q) {
        // Dequantized as tfjs does (in doubles, stored as float32), so the weights are the ones tfjs runs.
        if ((q.dtype !== 'uint8' && q.dtype !== 'uint16') || w.dtype !== 'float32' || q.min === undefined || q.scale === undefined) throw new Error(`tf-graph: weight ${w.name} has quantization ${q.dtype} of ${w.dtype}`);
        size = q.dtype === 'uint8' ? 1 : 2;
        const { min, scale } = q;
        const bytes = buf.subarray(o, o + size * n);
        const stored = size === 1 ? Uint8Array.from(bytes) : new Uint16Array(Uint8Array.from(bytes).buffer);
        data = Float32Array.from(stored, (v) => v * scale + min);
      } else if (w.dtype === 'bool') {
        size = 1;
        data = Int32Array.from(buf.subarray(o, o + n));
      } else {
        if (w.dtype !== 'float32' && w.dtype !== 'int32') throw new Error(`tf-graph: weight ${w.name} has dtype ${w.dtype}`);
        size = 4;
        // Copied out: the shard buffer's offsets need not be 4-aligned.
        data = w.dtype === 'float32' ? new Float32Array(n) : new Int32Array(n);
        new Uint8Array(data.buffer).set(buf.subarray(o, o + 4 * n));
      }
      weights.set(w.name, { shape: w.shape, data });
      o += size * n;
    }
  }
  return { nodes: json.modelTopology.node, weights };
}

export const str = (a: TfAttr | undefined) => (a?.s ? Buffer.from(a.s, 'base64').toString() : undefined);
export const ints = (a: TfAttr | undefined) => (a?.list?.i ?? []).map(Number);
export const strs = (a: TfAttr | undefined) => (a?.list?.s ?? []).map((s) => Buffer.from(s, 'base64').toString());
export const bare = (input: string) => input.replace(/^\^/, '').replace(/:0$/, '');
/** NHWC axis -> NCHW axis. */
export const AXIS = [0, 2, 3, 1];

/** TF's output side and pads (begin, end) for one spatial axis; SAME puts the odd pad at the end. */
export function spatial(size: number, k: number, s: number, d: number, padding: string): { out: number; pads: [number, number] } {
  const ke = (k - 1) * d + 1;
  if (padding === 'VALID') return { out: Math.floor((size - ke) / s) + 1, pads: [0, 0] };
  if (padding !== 'SAME') throw new Error(`tf-graph: padding ${padding} is not supported`);
  const out = Math.ceil(size / s);
  const total = Math.max(0, (out - 1) * s + ke - size);
  return { out, pads: [Math.floor(total / 2), total - Math.floor(total / 2)] };
}

/** An NHWC-broadcast constant (rank <= 4) as the NCHW constant ONNX broadcasting needs. */
export function toNchw(c: { shape: number[]; data: Float32Array }): { dims: number[]; data: Float32Array } {
  if (c.shape.length === 0) return { dims: [], data: c.data };
  const s = [...Array(4 - c.shape.length).fill(1), ...c.shape];
  const [N, H, W, C] = s;
  const out = new Float32Array(c.data.length);
  for (let n = 0; n < N; n++) for (let h = 0; h < H; h++) for (let w = 0; w < W; w++) for (let ch = 0; ch < C; ch++)
    out[((n * C + ch) * H + h) * W + w] = c.data[((n * H + h) * W + w) * C + ch];
  return { dims: [N, C, H, W], data: out };
}

/** TF conv weights HWIO -> ONNX OIHW; depthwise HW(C)(M) -> (C*M)1HW, output channel c * M + m as in TF. */
export function convWeights(src: Float32Array, [kh, kw, ci, co]: number[], depthwise: boolean): Float32Array {
  const out = new Float32Array(src.length);
  const ks = kh * kw;
  for (let k = 0; k < ks; k++) {
    for (let i = 0; i < ci; i++) {
      const s0 = (k * ci + i) * co;
      for (let o = 0; o < co; o++) out[(depthwise ? i * co + o : o * ci + i) * ks + k] = src[s0 + o];
    }
  }
  return out;
}

export function broadcast(a: number[], b: number[]): number[] {
  const r = Math.max(a.length, b.length);
  const pa = [...Array(r - a.length).fill(1), ...a], pb = [...Array(r - b.length).fill(1), ...b];
  return pa.map((x, i) => Math.max(x, pb[i]));
}

