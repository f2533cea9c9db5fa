/**
 * Static int8 quantisation of a converted graph's convolutions, in onnxruntime's QDQ form: each Conv reads its
 * input through QuantizeLinear -> DequantizeLinear (uint8, the calibrated range), its weights as int8 per output
 * channel and its bias as int32 through DequantizeLinear, and its output (after its ReLU) is quantised the same
 * way; onnxruntime fuses each such group into one integer convolution (QLinearConv), 2-2.5x cheaper on this
 * machine's AVX-512 VNNI than the float one. The form and the choices (per-channel symmetric int8 weights,
 * asymmetric uint8 activations over their min-max range) are those of onnxruntime's own quantize_static tool.
 * The graph's last convolution keeps a float output: its values are the logits the callers read.
 */
import type { OnnxGraph, OnnxInitializer, OnnxNode } from './onnx-proto.ts';

/** Activation ranges, [min, max] per tensor name, from calibration runs of the float graph. */
export type Ranges = Record<string, [number, number]>;

/** The tensors a quantised graph needs ranges for: every Conv's input and its output (after a ReLU that alone reads it). */
export function qdqTensors(g: OnnxGraph): string[] {
  const readers = consumers(g), ends = new Set(g.outputs.map((o) => o.name));
  const out = new Set<string>();
  for (const n of g.nodes) {
    if (n.op !== 'Conv') continue;
    out.add(n.inputs[0]);
    const y = convOutput(n, readers, ends);
    if (y) out.add(y);
  }
  return [...out];
}

/** Rewrites the graph's convolutions to QDQ int8 (in place); throws on a tensor with no range. */
export function quantizeConvs(g: OnnxGraph, ranges: Ranges): void {
  const inits = new Map(g.initializers.map((t) => [t.name, t]));
  const acts = new Map<string, { scale: number; zp: number }>();
  for (const t of qdqTensors(g)) {
    const r = ranges[t];
    if (!r) throw new Error(`onnx-qdq: no range for ${t}`);
    const lo = Math.min(0, r[0]), hi = Math.max(0, r[1]);
    const scale = hi > lo ? (hi - lo) / 255 : 1;
    acts.set(t, { scale: Math.fround(scale), zp: Math.min(255, Math.max(0, Math.round(-lo / scale))) });
  }
  const added: OnnxInitializer[] = [];
  const head: OnnxNode[] = [];
  const dropped = new Set<string>();
  const init = (name: string, dims: number[], data: OnnxInitializer['data']) => { added.push({ name, dims, data }); return name; };
  for (const n of g.nodes) {
    if (n.op !== 'Conv') continue;
    const x = acts.get(n.inputs[0])!;
    const w = inits.get(n.inputs[1]);
    if (!w || !(w.data instanceof Float32Array)) throw new Error(`onnx-qdq: ${n.inputs[1]} is not a float initializer`);
    const co = w.dims[0], per = w.data.length / co;
    const sw = new Float32Array(co), wq = new Int8Array(w.data.length);
    for (let c = 0; c < co; c++) {
      let m = 0;
      for (let i = c * per; i < (c + 1) * per; i++) m = Math.max(m, Math.abs(w.data[i]));
      sw[c] = m > 0 ? m / 127 : 1;
      for (let i = c * per; i < (c + 1) * per; i++) wq[i] = Math.round(w.data[i] / sw[c]);
    }
    const wName = n.inputs[1];
    head.push({ op: 'DequantizeLinear', inputs: [init(`${wName}/q`, w.dims, wq), init(`${wName}/s`, [co], sw), init(`${wName}/z`, [co], new Int8Array(co))], outputs: [`${wName}/dq`], attrs: { axis: 0 } });
    dropped.add(wName);
    n.inputs[1] = `${wName}/dq`;
    if (n.inputs[2]) {
      const b = inits.get(n.inputs[2]);
      if (!b || !(b.data instanceof Float32Array)) throw new Error(`onnx-qdq: ${n.inputs[2]} is not a float initializer`);
      const sb = Float32Array.from(sw, (s) => s * x.scale);
      const bq = Int32Array.from(b.data, (v, c) => Math.round(v / sb[c]));
      const bName = n.inputs[2];
      head.push({ op: 'DequantizeLinear', inputs: [init(`${bName}/q`, b.dims, bq), init(`${bName}/s`, [co], sb), init(`${bName}/z`, [co], new Int32Array(co))], outputs: [`${bName}/dq`], attrs: { axis: 0 } });
      dropped.add(bName);
      n.inputs[2] = `${bName}/dq`;
    }
  }
  // Each quantised activation: Q and DQ right after the node that makes it; its readers read the DQ.
  const nodes: OnnxNode[] = [...head];
  const rename = (name: string) => (acts.has(name) ? `${name}/dq` : name);
  for (const n of g.nodes) {
    nodes.push({ ...n, inputs: n.inputs.map((i) => (i.endsWith('/dq') ? i : rename(i))) });
    for (const o of n.outputs) {
      const a = acts.get(o);
      if (!a) continue;
      const s = init(`${o}/qs`, [], Float32Array.of(a.scale)), z = init(`${o}/qz`, [], Uint8Array.of(a.zp));
      nodes.push({ op: 'QuantizeLinear', inputs: [o, s, z], outputs: [`${o}/q`] });
      nodes.push({ op: 'DequantizeLinear', inputs: [`${o}/q`, s, z], outputs: [`${o}/dq`] });
    }
  }
  g.nodes = nodes;
  g.initializers = [...g.initializers.filter((t) => !dropped.has(t.name)), ...added];
}

/**
 * The tensor a Conv's quantised output is: its ReLU's when one alone reads it; none when it only feeds a node that
 * makes a graph output (the logits stay float).
 */
function convOutput(n: OnnxNode, readers: Map<string, OnnxNode[]>, ends: Set<string>): string | undefined {
  let y = n.outputs[0];
  const r = readers.get(y) ?? [];
  if (r.length === 1 && r[0].op === 'Relu') y = r[0].outputs[0];
  const next = readers.get(y) ?? [];
  if (ends.has(y) || next.length === 0 || next.every((m) => m.outputs.some((o) => ends.has(o)))) return undefined;
  return y;
}

function consumers(g: OnnxGraph): Map<string, OnnxNode[]> {
  const m = new Map<string, OnnxNode[]>();
  for (const n of g.nodes) for (const i of n.inputs) { if (!m.has(i)) m.set(i, []); m.get(i)!.push(n); }
  return m;
}
