/**
 * A minimal ONNX protobuf writer: just the messages a converted graph needs (ModelProto, GraphProto,
 * NodeProto, AttributeProto, TensorProto, ValueInfoProto), encoded by hand with varints and
 * length-delimited fields (field numbers from onnx/onnx.proto). It builds models in memory only, for
 * onnxruntime to open; nothing here reads ONNX.
 */

/** Attribute values: numbers are ints unless wrapped as { f }, arrays of numbers are ints. */
export type OnnxAttr = number | { f: number } | string | number[];

export interface OnnxNode { op: string; inputs: string[]; outputs: string[]; name?: string; attrs?: Record<string, OnnxAttr> }
export interface OnnxInitializer { name: string; dims: number[]; data: Float32Array | BigInt64Array | Int32Array | Int8Array | Uint8Array }
/** A dim is a size, a name (a symbolic size: dims of one name are equal), or negative (a batch of any size, 'N'). */
export interface OnnxValue { name: string; dims: (number | string)[] }
export interface OnnxGraph { nodes: OnnxNode[]; initializers: OnnxInitializer[]; inputs: OnnxValue[]; outputs: OnnxValue[]; opset: number }

const FLOAT = 1, UINT8 = 2, INT8 = 3, INT32 = 6, INT64 = 7;
const ATTR = { FLOAT: 1, INT: 2, STRING: 3, INTS: 7 };

/** Appends protobuf fields to a growing list of byte chunks. */
class Writer {
  private chunks: Uint8Array[] = [];
  private size = 0;

  private push(b: Uint8Array) { this.chunks.push(b); this.size += b.length; }

  private varint(v: bigint) {
    // Negative int64s are ten bytes of two's complement, as protobuf writes them.
    let u = BigInt.asUintN(64, v);
    const out: number[] = [];
    while (u >= 0x80n) { out.push(Number(u & 0x7fn) | 0x80); u >>= 7n; }
    out.push(Number(u));
    this.push(Uint8Array.from(out));
  }

  private key(field: number, wire: number) { this.varint(BigInt((field << 3) | wire)); }

  int(field: number, v: number | bigint) { this.key(field, 0); this.varint(BigInt(v)); return this; }

  float(field: number, v: number) {
    this.key(field, 5);
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, v, true);
    this.push(b);
    return this;
  }

  bytes(field: number, b: Uint8Array) { this.key(field, 2); this.varint(BigInt(b.length)); this.push(b); return this; }
  string(field: number, s: string) { return this.bytes(field, new TextEncoder().encode(s)); }
  message(field: number, w: Writer) { return this.bytes(field, w.finish()); }

  finish(): Uint8Array {
    const out = new Uint8Array(this.size);
    let o = 0;
    for (const c of this.chunks) { out.set(c, o); o += c.length; }
    return out;
  }
}

function attribute(name: string, v: OnnxAttr): Writer {
  const w = new Writer().string(1, name);
  if (typeof v === 'number') return w.int(3, v).int(20, ATTR.INT);
  if (typeof v === 'string') return w.string(4, v).int(20, ATTR.STRING);
  if (Array.isArray(v)) { for (const i of v) w.int(8, i); return w.int(20, ATTR.INTS); }
  return w.float(2, v.f).int(20, ATTR.FLOAT);
}

function tensor(t: OnnxInitializer): Writer {
  const w = new Writer();
  for (const d of t.dims) w.int(1, d);
  const d = t.data;
  w.int(2, d instanceof Float32Array ? FLOAT : d instanceof Int32Array ? INT32 : d instanceof Int8Array ? INT8 : d instanceof Uint8Array ? UINT8 : INT64);
  w.string(8, t.name);
  return w.bytes(9, new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
}

function valueInfo(v: OnnxValue): Writer {
  const shape = new Writer();
  // A negative dim is symbolic (a batch of any size): dim_param 'N' instead of dim_value.
  for (const d of v.dims) shape.message(1, typeof d === 'string' ? new Writer().string(2, d) : d < 0 ? new Writer().string(2, 'N') : new Writer().int(1, d));
  const tensorType = new Writer().int(1, FLOAT).message(2, shape);
  return new Writer().string(1, v.name).message(2, new Writer().message(1, tensorType));
}

/** The serialised ModelProto (IR version 8) of a graph in the default ONNX domain. */
export function encodeOnnxModel(g: OnnxGraph, name = 'graph'): Uint8Array {
  const graph = new Writer();
  g.nodes.forEach((n, k) => {
    const node = new Writer();
    for (const i of n.inputs) node.string(1, i);
    for (const o of n.outputs) node.string(2, o);
    node.string(3, n.name ?? `${n.op}_${k}`).string(4, n.op);
    for (const [an, av] of Object.entries(n.attrs ?? {})) node.message(5, attribute(an, av));
    graph.message(1, node);
  });
  graph.string(2, name);
  for (const t of g.initializers) graph.message(5, tensor(t));
  for (const v of g.inputs) graph.message(11, valueInfo(v));
  for (const v of g.outputs) graph.message(12, valueInfo(v));
  return new Writer()
    .int(1, 8)
    .string(2, 'atelier')
    .message(8, new Writer().string(1, '').int(2, g.opset))
    .message(7, graph)
    .finish();
}
