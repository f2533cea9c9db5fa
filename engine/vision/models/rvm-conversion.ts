/**
 * The state of one RVM conversion (rvm-onnx.ts) and the emitters its op cases share: the branches not
 * taken, SpaceToBatchND outputs awaiting their convolution, where folded sizes came from, the zero
 * recurrent state and what it zeroes; constants, pads, crops to another tensor's size and splits as ONNX.
 */
import type { OnnxBuilder, Value } from './onnx-builder.ts';
import { size, type Const, type Data } from './tf-fold.ts';
import { AXIS, bare, toNchw } from './tf-graph.ts';

/** Where a folded integer came from: axis `axis` of tensor `of`, times `scale` (sizes the graph computes). */
export interface Sym { of: Extract<Value, { kind: 'tensor' }>; axis: number; scale: number }

/** int64 initializer data. */
export const i64 = (v: number[]) => BigInt64Array.from(v.map(BigInt));

/** The conversion's state over builder `b`, and the emitters that read and write it. */
export function rvmConversion(b: OnnxBuilder) {
  const g = b.graph, values = b.values;
  const init = b.init.bind(b), node = b.node.bind(b), get = b.get.bind(b), tensor = b.tensor.bind(b), constant = b.constant.bind(b);
  const fail: (m: string) => never = (m) => b.fail(m);
  type Tensor = Extract<Value, { kind: 'tensor' }>;
  /** Outputs of the branches the fixed ratio does not take. */
  const dead = new Set<string>();
  const isDead = (input: string) => dead.has(bare(input));
  /** SpaceToBatchND outputs, kept as what they were made from: the convolution after them becomes a dilated one. */
  const spaceToBatch = new Map<string, { x: Tensor; block: number[]; pads: number[][] }>();
  /** Per folded integer constant, where each element came from (Shape, then slices, packs, casts and scalings). */
  const syms = new WeakMap<Data, (Sym | undefined)[]>();
  /** The recurrent state (zero) and what it zeroes: folded away, never an ONNX value. */
  const zeros = new WeakSet<Data>();
  /** Concatenations of tensors with zeros after them on the channel axis: only a convolution takes them (its weights for the zeros dropped). */
  const zeroTail = new Map<string, { live: Tensor; shape: number[] }>();
  const setConst = (out: string, shape: number[], data: Data, from?: (Sym | undefined)[]) => {
    values.set(out, { kind: 'const', shape, data });
    if (from?.some(Boolean)) syms.set(data, from);
  };
  const zero = (out: string, shape: number[]) => {
    const data = new Float32Array(size(shape));
    zeros.add(data);
    values.set(out, { kind: 'const', shape, data });
  };
  const isZero = (v: Value) => v.kind === 'const' && zeros.has(v.data);
  /** An elementwise operand: a tensor, or a float constant with no spatial extent made an NCHW initializer. */
  const operand = (input: string): { name: string; shape: number[] } => {
    const v = get(input);
    if (v.kind === 'tensor') return v;
    if (isZero(v)) fail(`${input} (the zero recurrent state) reaches an op that cannot fold it`);
    if (v.shape.length > 4) fail(`constant operand ${input} has rank ${v.shape.length}`);
    const c = toNchw({ shape: v.shape, data: Float32Array.from(v.data) });
    if (c.dims.length === 4 && (c.dims[2] !== 1 || c.dims[3] !== 1)) fail(`constant operand ${input} has a spatial extent (it would only fit one size)`);
    return { name: init(bare(input), c.dims, c.data), shape: v.shape };
  };
  const pairs = (c: Const, rows: number) => {
    if (c.shape.join() !== `${rows},2`) fail(`paddings of shape ${c.shape.join('x')} where ${rows}x2 is expected`);
    return [...Array(rows).keys()].map((i) => [c.data[2 * i], c.data[2 * i + 1]]);
  };
  /** An NHWC pad as ONNX Pad (NCHW), or the input itself when there is nothing to pad. */
  const pad = (x: Tensor, p: number[][], out: string): Tensor => {
    if (p.every(([a, e]) => a === 0 && e === 0)) return x;
    const nchw = [0, 3, 1, 2].map((i) => p[i]);
    node('Pad', [x.name, init(`${out}/pads`, [8], i64([...nchw.map((q) => q[0]), ...nchw.map((q) => q[1])]))], out);
    b.setTensor(out, x.shape.map((d, i) => d + p[i][0] + p[i][1]));
    return tensor(out);
  };
  /** The sizes of `of`'s axes (NHWC), as an int64 ONNX tensor. */
  const dimsOf = (of: Tensor, axes: number[], out: string): string => {
    const shape = node('Shape', [of.name], `${out}/shape`);
    return node('Gather', [shape, init(`${out}/axes`, [axes.length], i64(axes.map((a) => AXIS[a])))], `${out}/dims`, { axis: 0 });
  };
  /** Crops an NHWC tensor on H and W from 0 to sizes the graph computed from another tensor's shape. */
  const crop = (x: Tensor, begin: number[], sizes: Data, out: string) => {
    const from = syms.get(sizes) ?? [];
    const axes: number[] = [];
    const shape = [...x.shape];
    for (let i = 0; i < 4; i++) {
      if (sizes[i] === -1 || (i === 0 || i === 3 ? begin[i] === 0 && sizes[i] === x.shape[i] : false)) continue;
      const f = from[i];
      if (i === 0 || i === 3 || begin[i] !== 0 || !f || f.scale !== 1 || f.axis !== i) fail(`${out} crops axis ${i} to a size that is not another tensor's`);
      axes.push(i);
      shape[i] = f.of.shape[f.axis];
    }
    if (!axes.length) { values.set(out, x); return; }
    const of = from[axes[0]]!.of;
    if (axes.some((i) => from[i]!.of !== of)) fail(`${out} crops to the sizes of two tensors`);
    const starts = init(`${out}/starts`, [axes.length], i64(axes.map(() => 0)));
    node('Slice', [x.name, starts, dimsOf(of, axes, out), init(`${out}/axes`, [axes.length], i64(axes.map((i) => AXIS[i])))], out);
    b.setTensor(out, shape);
  };
  const split = (out: string, x: Tensor, axis: number, parts: number[]) => {
    if (parts.reduce((s, p) => s + p, 0) !== x.shape[axis]) fail(`${out} splits ${x.shape[axis]} into ${parts.join('+')}`);
    if (axis !== 3) fail(`${out} splits a spatial axis`);
    const names = parts.map((_, k) => (k ? `${out}#${k}` : out));
    g.nodes.push({ op: 'Split', inputs: [x.name, init(`${out}/split`, [parts.length], i64(parts))], outputs: names, attrs: { axis: AXIS[axis] } });
    names.forEach((n, k) => values.set(k ? `${out}:${k}` : out, { kind: 'tensor', name: n, shape: x.shape.map((d, i) => (i === axis ? parts[k] : d)) }));
  };
  const axisOf = (input: string, rank: number) => {
    const a = constant(input).data[0];
    return (a + rank) % rank;
  };
  return { dead, isDead, spaceToBatch, syms, zeroTail, setConst, zero, isZero, operand, pairs, pad, dimsOf, crop, split, axisOf };
}
