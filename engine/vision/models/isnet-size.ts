/**
 * ISNet's .onnx at another input side than the 1024 it was exported for. The export fixed the input's
 * dims, and every upsampling (`_upsample_like`: Resize to Concat(Shape(x)[0:2], Constant [k, k])) took its
 * target side as a constant. The graph has no other shape-dependent op (Conv, Relu, MaxPool with ceil_mode,
 * Concat, Add, Sigmoid, Shape, Slice, Cast, Resize), so scaling those constants by side / 1024, giving the
 * input [1, 3, side, side] and leaving the intermediate shapes (value_info) for onnxruntime to infer makes
 * the same network at that side. The side must be a multiple of 64: the encoder halves the image six times
 * (1024 → 16), and each level must stay the exact half of the one above for the constants to match.
 *
 * Only the protobuf fields involved are decoded; everything else (the weights) is copied as it is. Written
 * for the medium variant (the one the effects use); the small one's graph feeds its Resize sizes otherwise
 * and is refused (an error, not a wrong network).
 */

const EXPORT_SIDE = 1024;
export const SIDE_STEP = 64;

interface Field { f: number; wire: number; start: number; end: number; value?: number; body?: [number, number] }

function varint(b: Uint8Array, at: { i: number }): number {
  let r = 0, mul = 1;
  for (;;) {
    const x = b[at.i++];
    r += (x & 127) * mul;
    if (x < 128) return r;
    mul *= 128;
  }
}

/** The fields of the message in b[from, to), with where each lies (tag included) and its body. */
function fields(b: Uint8Array, from: number, to: number): Field[] {
  const at = { i: from }, out: Field[] = [];
  while (at.i < to) {
    const start = at.i;
    const key = varint(b, at), f = Math.floor(key / 8), wire = key & 7;
    if (wire === 0) out.push({ f, wire, start, value: varint(b, at), end: at.i });
    else if (wire === 2) { const n = varint(b, at); out.push({ f, wire, start, body: [at.i, at.i + n], end: at.i + n }); at.i += n; }
    else if (wire === 5 || wire === 1) { at.i += wire === 5 ? 4 : 8; out.push({ f, wire, start, end: at.i }); }
    else throw new Error(`isnet-size: protobuf wire type ${wire} at ${start}`);
  }
  if (at.i !== to) throw new Error('isnet-size: truncated protobuf message');
  return out;
}

const encVarint = (v: number) => {
  const out: number[] = [];
  do { out.push((v & 127) | (v >= 128 ? 128 : 0)); v = Math.floor(v / 128); } while (v > 0);
  return out;
};
/** A length-delimited field. */
const bytesField = (f: number, body: Uint8Array) => Buffer.concat([Buffer.from([...encVarint(f * 8 + 2), ...encVarint(body.length)]), body]);
const intField = (f: number, v: number) => Buffer.from([...encVarint(f * 8), ...encVarint(v)]);
const text = (b: Uint8Array, [s, e]: [number, number]) => Buffer.from(b.buffer, b.byteOffset + s, e - s).toString();

/** ValueInfoProto of a float tensor: name, and the shape when given (no shape: onnxruntime infers it). */
function floatValueInfo(name: string, dims?: number[]): Buffer {
  // TypeProto.tensor_type (1) = { elem_type (1) = FLOAT (1), shape (2) = { dim (1) = { dim_value (1) } ... } }
  const shape = dims && bytesField(2, Buffer.concat(dims.map((d) => bytesField(1, intField(1, d)))));
  const tensor = Buffer.concat([intField(1, 1), ...(shape ? [shape] : [])]);
  return Buffer.concat([bytesField(1, Buffer.from(name)), bytesField(2, bytesField(1, tensor))]);
}

/** The .onnx bytes of ISNet (as exported, at 1024) rewritten for input side x side. */
export function isnetAtSide(onnx: Uint8Array, side: number): Buffer {
  if (!Number.isInteger(side) || side < SIDE_STEP || side % SIDE_STEP !== 0) throw new Error(`isnet-size: side ${side} is not a positive multiple of ${SIDE_STEP}`);
  const b = Buffer.from(onnx); // a copy: the Resize constants are patched in place
  const model = fields(b, 0, b.length);
  const graphField = model.find((m) => m.f === 7 && m.body);
  if (!graphField) throw new Error('isnet-size: no graph');
  const graph = fields(b, ...graphField.body!);

  // Nodes: op_type (4), input (1), output (2), attribute (5). Constant's tensor: attribute t (5).
  const nodes = graph.filter((g) => g.f === 1).map((g) => {
    const n = fields(b, ...g.body!);
    return {
      op: text(b, n.find((x) => x.f === 4)!.body!),
      inputs: n.filter((x) => x.f === 1).map((x) => text(b, x.body!)),
      outputs: n.filter((x) => x.f === 2).map((x) => text(b, x.body!)),
      attrs: n.filter((x) => x.f === 5),
    };
  });
  const byOutput = new Map(nodes.flatMap((n) => n.outputs.map((o) => [o, n] as const)));
  // The constants that make Resize's `sizes` (its 4th input) through a Concat.
  const sizeConstants = new Set<string>();
  for (const n of nodes.filter((n) => n.op === 'Resize')) {
    const concat = byOutput.get(n.inputs[3] ?? '');
    if (concat?.op !== 'Concat') throw new Error('isnet-size: a Resize whose sizes are not a Concat');
    for (const i of concat.inputs) if (byOutput.get(i)?.op === 'Constant') sizeConstants.add(i);
  }
  if (!sizeConstants.size) throw new Error('isnet-size: no Resize size constants found');
  let patched = 0;
  for (const n of nodes.filter((n) => n.op === 'Constant' && sizeConstants.has(n.outputs[0]))) {
    const t = fields(b, ...fields(b, ...n.attrs[0].body!).find((x) => x.f === 5)!.body!);
    // TensorProto: dims (1), data_type (2) = INT64 (7), raw_data (9).
    const raw = t.find((x) => x.f === 9)?.body;
    if (t.find((x) => x.f === 2)?.value !== 7 || !raw || raw[1] - raw[0] !== 16) throw new Error('isnet-size: a size constant is not two int64 in raw_data');
    for (let k = raw[0]; k < raw[1]; k += 8) {
      const v = Number(b.readBigInt64LE(k));
      const scaled = (v * side) / EXPORT_SIDE;
      if (!Number.isInteger(scaled)) throw new Error(`isnet-size: upsampling target ${v} does not scale to side ${side}`);
      b.writeBigInt64LE(BigInt(scaled), k);
    }
    patched++;
  }

  const parts: Uint8Array[] = [];
  for (const g of graph) {
    if (g.f === 13) continue; // value_info: the intermediate shapes at 1024
    if (g.f === 11) {
      const name = text(b, fields(b, ...g.body!).find((x) => x.f === 1)!.body!);
      parts.push(bytesField(11, floatValueInfo(name, [1, 3, side, side])));
    } else if (g.f === 12) {
      parts.push(bytesField(12, floatValueInfo(text(b, fields(b, ...g.body!).find((x) => x.f === 1)!.body!))));
    } else parts.push(b.subarray(g.start, g.end));
  }
  if (!patched) throw new Error('isnet-size: nothing patched');
  const newGraph = Buffer.concat(parts);
  return Buffer.concat(model.map((m) => (m === graphField ? bytesField(7, newGraph) : b.subarray(m.start, m.end))));
}
