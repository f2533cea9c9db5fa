/**
 * What the tfjs-graph -> ONNX converters (bisenet-onnx.ts, faceres-onnx.ts, rvm-onnx.ts) share: the nodes
 * their outputs need, in order, and an ONNX graph built value by value, each TF node's result kept either as
 * a tensor of the ONNX graph (with its NHWC shape) or as a constant known here, plus the convolution
 * lowering both networks need. Each converter keeps only its own ops and conventions.
 */
import type { OnnxAttr, OnnxGraph, OnnxInitializer } from './onnx-proto.ts';
import { bare, convWeights, ints, spatial, str, type TfAttr, type TfGraph, type TfNode } from './tf-graph.ts';

/** A value during conversion: a float tensor in the ONNX graph (its NHWC shape) or a constant known here. */
export type Value =
  | { kind: 'tensor'; name: string; shape: number[] }
  | { kind: 'const'; shape: number[]; data: Float32Array | Int32Array };

/**
 * The nodes the outputs need, inputs before their users; `label` names the converter in errors.
 * `control: false` leaves out what only control inputs (^name: asserts, branch pivots) reach.
 */
export function nodesFor(graph: TfGraph, outputs: readonly string[], label: string, opts: { control?: boolean } = {}): TfNode[] {
  const byName = new Map(graph.nodes.map((nd) => [nd.name, nd]));
  const order: TfNode[] = [];
  const state = new Map<string, 'busy' | 'done'>();
  const visit = (name: string) => {
    const st = state.get(name);
    if (st === 'done') return;
    if (st === 'busy') throw new Error(`${label}: cycle at ${name}`);
    const nd = byName.get(name);
    if (!nd) throw new Error(`${label}: no node ${name}`);
    state.set(name, 'busy');
    for (const i of nd.input ?? []) if (opts.control !== false || !i.startsWith('^')) visit(bare(i).replace(/:\d+$/, ''));
    state.set(name, 'done');
    order.push(nd);
  };
  outputs.forEach(visit);
  return order;
}

export class OnnxBuilder {
  readonly graph: OnnxGraph = { nodes: [], initializers: [], inputs: [], outputs: [], opset: 17 };
  readonly values = new Map<string, Value>();
  private uid = 0;

  constructor(private readonly label: string, private readonly weights: TfGraph['weights']) {}

  fail(message: string): never {
    throw new Error(`${this.label}: ${message}`);
  }

  /** An initializer under a fresh name (TF names repeat across the rewritten nodes). */
  init(base: string, dims: number[], data: OnnxInitializer['data']): string {
    const name = `${base}#${this.uid++}`;
    this.graph.initializers.push({ name, dims, data });
    return name;
  }

  node(op: string, inputs: string[], out: string, attrs?: Record<string, OnnxAttr>): string {
    this.graph.nodes.push({ op, inputs, outputs: [out], attrs });
    return out;
  }

  setTensor(out: string, shape: number[]): void {
    this.values.set(out, { kind: 'tensor', name: out, shape });
  }

  /**
   * Converts the nodes in order: Const (a constant known here, an initializer only once an op needs it),
   * Relu and Sigmoid here, every other op by the converter's `convert`, which returns false for an op it
   * does not know: that fails, so a changed model fails loudly instead of running wrongly.
   */
  convertAll(order: readonly TfNode[], convert: (nd: TfNode, attr: Record<string, TfAttr>, ins: string[], out: string) => boolean): void {
    for (const nd of order) {
      const attr = nd.attr ?? {}, ins = nd.input ?? [], out = nd.name;
      if (nd.op === 'Const') {
        const w = this.weights.get(nd.name);
        if (!w) this.fail(`constant ${nd.name} has no weights`);
        this.values.set(out, { kind: 'const', shape: w.shape, data: w.data });
      } else if (nd.op === 'Relu' || nd.op === 'Sigmoid') {
        const x = this.tensor(ins[0]);
        this.node(nd.op, [x.name], out);
        this.setTensor(out, x.shape);
      } else if (!convert(nd, attr, ins, out)) {
        this.fail(`op ${nd.op} (${out}) is not supported`);
      }
    }
  }

  get(input: string): Value {
    const v = this.values.get(bare(input));
    if (!v) this.fail(`${input} has no value`);
    return v;
  }

  tensor(input: string): Extract<Value, { kind: 'tensor' }> {
    const v = this.get(input);
    if (v.kind !== 'tensor') this.fail(`${input} is a constant where a tensor is expected`);
    return v;
  }

  constant(input: string): Extract<Value, { kind: 'const' }> {
    const v = this.get(input);
    if (v.kind !== 'const') this.fail(`${input} is not a constant`);
    return v;
  }

  floats(input: string): { shape: number[]; data: Float32Array } {
    const v = this.constant(input);
    if (!(v.data instanceof Float32Array)) this.fail(`${input} is not a float constant`);
    return { shape: v.shape, data: v.data };
  }

  /**
   * A TF convolution (HWIO kernel, NHWC, SAME or VALID) as an ONNX Conv, with an optional bias and ReLU
   * fused in as TF's _Fused ops have them.
   */
  conv(out: string, input: string, kernel: string, attr: Record<string, TfAttr>, depthwise: boolean, fused: { bias?: Float32Array; relu?: boolean } = {}): void {
    const x = this.tensor(input), w = this.floats(kernel);
    if (str(attr.data_format) && str(attr.data_format) !== 'NHWC') this.fail(`${out} is not NHWC`);
    const [kh, kw, ci, co] = w.shape;
    const strides = ints(attr.strides), dil = ints(attr.dilations).length ? ints(attr.dilations) : [1, 1, 1, 1];
    const padding = str(attr.padding)!;
    const sy = spatial(x.shape[1], kh, strides[1], dil[1], padding), sx = spatial(x.shape[2], kw, strides[2], dil[2], padding);
    const outC = depthwise ? ci * co : co;
    const inputs = [x.name, this.init(`${out}/W`, depthwise ? [outC, 1, kh, kw] : [co, ci, kh, kw], convWeights(w.data, w.shape, depthwise))];
    if (fused.bias) inputs.push(this.init(`${out}/B`, [outC], fused.bias));
    const convOut = fused.relu ? `${out}/conv` : out;
    this.node('Conv', inputs, convOut, {
      kernel_shape: [kh, kw], strides: [strides[1], strides[2]], dilations: [dil[1], dil[2]],
      pads: [sy.pads[0], sx.pads[0], sy.pads[1], sx.pads[1]], group: depthwise ? ci : 1,
    });
    if (fused.relu) this.node('Relu', [convOut], out);
    this.setTensor(out, [x.shape[0], sy.out, sx.out, outC]);
  }
}
