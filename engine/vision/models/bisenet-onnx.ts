/**
 * BiSeNetV2 as an ONNX network: the tfjs graph model (model.json and its weight shards, read from
 * node_modules) converted in memory, for one fixed square input side, up to the logits. onnxruntime runs
 * it several times faster than tfjs-wasm on one thread. The weights are for non-commercial research use
 * only, so the converted model is never written anywhere: it lives in the session that opens it.
 *
 * The graph is NHWC; the ONNX one is NCHW inside, with NHWC at both ends so callers see what tfjs gave:
 * input [1, n, n, 3] RGB in 0..1 (normalised to 2x - 1 inside), output [1, n/8, n/8, 19] logits.
 * Shapes are all static for a given n, so the graph's Shape/StridedSlice/Pack arithmetic is folded here.
 */
import { nodesFor, OnnxBuilder } from './onnx-builder.ts';
import { encodeOnnxModel } from './onnx-proto.ts';
import { qdqTensors, quantizeConvs, type Ranges } from './onnx-qdq.ts';
import { AXIS, bare, broadcast, ints, readTfGraph, spatial, str, strs, toNchw, type TfGraph } from './tf-graph.ts';

export type { TfGraph };

/** Reads model.json and its shards (bisenet.ts says where they are; it imports this file, not the reverse). */
export const readBisenetGraph = readTfGraph;

export const ONNX_INPUT = 'input';
export const ONNX_LOGITS = 'logits';

/**
 * The ONNX model (serialised ModelProto) for input side n: throws on anything in the graph it does not
 * know how to convert, so a changed model fails loudly instead of parsing wrongly.
 */
export function bisenetToOnnx(graph: TfGraph, n: number, output: string, opts: { int8?: Ranges; probe?: boolean } = {}): Uint8Array {
  if (!Number.isInteger(n) || n <= 0) throw new Error(`bisenet-onnx: input side ${n} is not a positive integer`);
  const order = nodesFor(graph, [output], 'bisenet-onnx');
  const b = new OnnxBuilder('bisenet-onnx', graph.weights);
  const g = b.graph, values = b.values;
  g.inputs.push({ name: ONNX_INPUT, dims: [1, n, n, 3] });
  const init = b.init.bind(b), node = b.node.bind(b), get = b.get.bind(b), tensor = b.tensor.bind(b), constant = b.constant.bind(b);
  /** An operand of an elementwise op: a tensor's name, or a constant made an NCHW initializer. */
  const operand = (input: string): { name: string; shape: number[] } => {
    const v = get(input);
    if (v.kind === 'tensor') return v;
    if (!(v.data instanceof Float32Array) || v.shape.length > 4) throw new Error(`bisenet-onnx: constant operand ${input} is not a float of rank <= 4`);
    const c = toNchw({ shape: v.shape, data: v.data });
    return { name: init(bare(input), c.dims, c.data), shape: v.shape };
  };

  b.convertAll(order, (nd, a, ins, out) => {
    switch (nd.op) {
      case 'Placeholder': {
        const two = init('two', [], Float32Array.of(2)), one = init('one', [], Float32Array.of(1));
        const scaled = node('Mul', [ONNX_INPUT, two], `${out}/x2`);
        // The model was trained on x / 127.5 - 1, i.e. 2 * (x / 255) - 1.
        const centred = node('Sub', [scaled, one], `${out}/x2-1`);
        node('Transpose', [centred], out, { perm: [0, 3, 1, 2] });
        values.set(out, { kind: 'tensor', name: out, shape: [1, n, n, 3] });
        break;
      }
      case 'Conv2D':
      case '_FusedConv2D':
      case 'FusedDepthwiseConv2dNative': {
        const fused = nd.op === 'Conv2D' ? [] : strs(a.fused_ops);
        if (fused.length && fused[0] !== 'BiasAdd') throw new Error(`bisenet-onnx: ${out} fuses ${fused.join('+')}`);
        const other = fused.find((f) => f !== 'BiasAdd' && f !== 'Relu');
        if (other) throw new Error(`bisenet-onnx: ${out} fuses ${other}`);
        const bias = fused.includes('BiasAdd') ? Float32Array.from(constant(ins[2]).data) : undefined;
        b.conv(out, ins[0], ins[1], a, nd.op === 'FusedDepthwiseConv2dNative', { bias, relu: fused.includes('Relu') });
        break;
      }
      case 'MaxPool':
      case 'AvgPool': {
        const x = tensor(ins[0]);
        const k = ints(a.ksize), s = ints(a.strides), padding = str(a.padding)!;
        const sy = spatial(x.shape[1], k[1], s[1], 1, padding), sx = spatial(x.shape[2], k[2], s[2], 1, padding);
        // AveragePool's count_include_pad defaults to 0: TF's SAME average also leaves the pads out.
        node(nd.op === 'MaxPool' ? 'MaxPool' : 'AveragePool', [x.name], out, {
          kernel_shape: [k[1], k[2]], strides: [s[1], s[2]], pads: [sy.pads[0], sx.pads[0], sy.pads[1], sx.pads[1]],
        });
        values.set(out, { kind: 'tensor', name: out, shape: [1, sy.out, sx.out, x.shape[3]] });
        break;
      }
      case 'ConcatV2': {
        const axisC = constant(ins[ins.length - 1]);
        const parts = ins.slice(0, -1).map(tensor);
        const axis = (axisC.data[0] + 4) % 4;
        node('Concat', parts.map((p) => p.name), out, { axis: AXIS[axis] });
        const shape = [...parts[0].shape];
        shape[axis] = parts.reduce((s, p) => s + p.shape[axis], 0);
        values.set(out, { kind: 'tensor', name: out, shape });
        break;
      }
      case 'Add':
      case 'AddV2':
      case 'Mul': {
        const va = get(ins[0]), vb = get(ins[1]);
        if (va.kind === 'const' && vb.kind === 'const') {
          // Integer shape arithmetic (the sizes after the logits): folded.
          if (!(va.data instanceof Int32Array) || !(vb.data instanceof Int32Array) || vb.data.length !== 1) throw new Error(`bisenet-onnx: cannot fold ${out}`);
          const k = vb.data[0];
          values.set(out, { kind: 'const', shape: va.shape, data: va.data.map((v) => (nd.op === 'Mul' ? v * k : v + k)) });
          break;
        }
        const x = operand(ins[0]), y = operand(ins[1]);
        node(nd.op === 'Mul' ? 'Mul' : 'Add', [x.name, y.name], out);
        values.set(out, { kind: 'tensor', name: out, shape: broadcast(x.shape, y.shape) });
        break;
      }
      case 'Mean': {
        const x = tensor(ins[0]);
        const axes = [...constant(ins[1]).data].map((v) => (v + 4) % 4);
        const keep = a.keep_dims?.b ? 1 : 0;
        if (!keep) throw new Error(`bisenet-onnx: ${out} drops its reduced axes`);
        node('ReduceMean', [x.name], out, { axes: axes.map((v) => AXIS[v]), keepdims: 1 });
        values.set(out, { kind: 'tensor', name: out, shape: x.shape.map((d, i) => (axes.includes(i) ? 1 : d)) });
        break;
      }
      case 'Shape': {
        const x = tensor(ins[0]);
        values.set(out, { kind: 'const', shape: [4], data: Int32Array.from(x.shape) });
        break;
      }
      case 'StridedSlice': {
        const v = constant(ins[0]);
        const [b, e, s] = [1, 2, 3].map((i) => constant(ins[i]).data);
        const masks = ['begin_mask', 'end_mask', 'ellipsis_mask', 'new_axis_mask', 'shrink_axis_mask'].map((m) => Number(a[m]?.i ?? 0));
        if (v.shape.length !== 1 || b.length !== 1 || masks.some((m) => m !== 0) || s[0] !== 1) throw new Error(`bisenet-onnx: cannot fold ${out}`);
        const data = v.data.slice(b[0], e[0]);
        values.set(out, { kind: 'const', shape: [data.length], data });
        break;
      }
      case 'Pack': {
        const parts = ins.map(constant);
        if (parts.some((p) => p.data.length !== 1)) throw new Error(`bisenet-onnx: cannot fold ${out}`);
        values.set(out, { kind: 'const', shape: [parts.length], data: Int32Array.from(parts.map((p) => p.data[0])) });
        break;
      }
      case 'ResizeBilinear': {
        const x = tensor(ins[0]);
        const size = constant(ins[1]).data;
        const mode = a.align_corners?.b ? 'align_corners' : a.half_pixel_centers?.b ? 'half_pixel' : 'asymmetric';
        const sizes = init(`${out}/sizes`, [4], BigInt64Array.from([1, x.shape[3], size[0], size[1]].map(BigInt)));
        node('Resize', [x.name, '', '', sizes], out, { mode: 'linear', coordinate_transformation_mode: mode });
        values.set(out, { kind: 'tensor', name: out, shape: [1, size[0], size[1], x.shape[3]] });
        break;
      }
      default:
        return false;
    }
    return true;
  });
  const last = tensor(output);
  node('Transpose', [last.name], ONNX_LOGITS, { perm: [0, 2, 3, 1] });
  g.outputs.push({ name: ONNX_LOGITS, dims: last.shape });
  // probe: every tensor the int8 graph quantises as an output too, for calibrating their ranges (scripts/train/bisenet-ranges.ts).
  if (opts.probe) for (const t of qdqTensors(g)) g.outputs.push({ name: t, dims: [`${t}:0`, `${t}:1`, `${t}:2`, `${t}:3`] });
  if (opts.int8) quantizeConvs(g, opts.int8);
  return encodeOnnxModel(g, 'bisenetv2-celebamask');
}
