/** TF ops on constants, folded as TF computes them (numpy broadcasting, StridedSlice's masks), for the converters. */
import type { Value } from './onnx-builder.ts';
import { broadcast } from './tf-graph.ts';

export type Const = Extract<Value, { kind: 'const' }>;
export type Data = Float32Array | Int32Array;

export const size = (shape: readonly number[]) => shape.reduce((a, b) => a * b, 1);

/** Elementwise a op b on constants, numpy broadcasting; ints stay ints when both are. */
export function foldBinary(a: Const, b: Const, f: (x: number, y: number) => number): Const {
  const shape = broadcast(a.shape, b.shape);
  const r = shape.length;
  const pa = [...Array(r - a.shape.length).fill(1), ...a.shape], pb = [...Array(r - b.shape.length).fill(1), ...b.shape];
  const n = size(shape);
  const out = a.data instanceof Int32Array && b.data instanceof Int32Array ? new Int32Array(n) : new Float32Array(n);
  const idx = new Array<number>(r).fill(0);
  const offset = (p: number[]) => idx.reduce((o, v, i) => o * p[i] + (p[i] === 1 ? 0 : v), 0);
  for (let k = 0; k < n; k++) {
    out[k] = f(a.data[offset(pa)], b.data[offset(pb)]);
    for (let i = r - 1; i >= 0; i--) { if (++idx[i] < shape[i]) break; idx[i] = 0; }
  }
  return { kind: 'const', shape, data: out };
}

/** TF's StridedSlice on a constant (begin, end, strides per leading axis; the masks as TF reads them). */
export function foldStridedSlice(v: Const, begin: Data, end: Data, strides: Data, masks: { begin: number; end: number; shrink: number; ellipsis: number; newAxis: number }): Const {
  if (masks.ellipsis || masks.newAxis) throw new Error('strided slice: ellipsis and new axes are not supported');
  const ranges: number[][] = [];
  const shape: number[] = [];
  v.shape.forEach((d, i) => {
    if (i >= begin.length) { ranges.push([...Array(d).keys()]); shape.push(d); return; }
    const s = strides[i];
    if (s === 0) throw new Error('strided slice: stride 0');
    const norm = (x: number) => (x < 0 ? x + d : x);
    if (masks.shrink & (1 << i)) { ranges.push([norm(begin[i])]); return; }
    let b = masks.begin & (1 << i) ? (s > 0 ? 0 : d - 1) : norm(begin[i]);
    let e = masks.end & (1 << i) ? (s > 0 ? d : -1) : norm(end[i]);
    b = s > 0 ? Math.min(Math.max(b, 0), d) : Math.min(Math.max(b, -1), d - 1);
    e = s > 0 ? Math.min(Math.max(e, 0), d) : Math.min(Math.max(e, -1), d - 1);
    const r: number[] = [];
    for (let k = b; s > 0 ? k < e : k > e; k += s) r.push(k);
    ranges.push(r);
    shape.push(r.length);
  });
  const strideOf = v.shape.map((_, i) => size(v.shape.slice(i + 1)));
  const out: number[] = [];
  const walk = (axis: number, o: number) => {
    if (axis === ranges.length) { out.push(v.data[o]); return; }
    for (const k of ranges[axis]) walk(axis + 1, o + k * strideOf[axis]);
  };
  walk(0, 0);
  return { kind: 'const', shape, data: v.data instanceof Int32Array ? Int32Array.from(out) : Float32Array.from(out) };
}

/** The binary ops folded on constants, as TF computes them. */
export const FOLD: Record<string, (x: number, y: number) => number> = {
  Mul: (x, y) => x * y, Add: (x, y) => x + y, AddV2: (x, y) => x + y, Sub: (x, y) => x - y, RealDiv: (x, y) => x / y,
  Minimum: Math.min, Maximum: Math.max, Equal: (x, y) => Number(x === y), FloorMod: (x, y) => ((x % y) + y) % y,
};
/** The ONNX op of each binary TF op on a tensor. */
export const ONNX_BINARY: Record<string, string> = { Mul: 'Mul', Add: 'Add', AddV2: 'Add', Sub: 'Sub', RealDiv: 'Div', Minimum: 'Min', Maximum: 'Max' };
