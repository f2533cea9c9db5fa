import { fixtureRaster } from '../../test/photos.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RasterImage } from '../../image/raster.ts';
import { cropRoi } from '../faces/crop.ts';
import { detectFaces } from '../faces/detect.ts';
import type { HumanLike, TensorLike } from './human.ts';
import { openLocalOnnx } from './onnx.ts';
import { ModelRegistry } from './registry.ts';
import { bisenetToOnnx, ONNX_INPUT, ONNX_LOGITS, readBisenetGraph } from './bisenet-onnx.ts';
import { BISENET_MODEL_JSON, bisenetOnnxBytes, LOGITS_NODE, parserLogits, parserLogitsData, PARSING_CLASSES, STRIDE, type FaceParser } from './bisenet.ts';
import { parsingRoi } from '../parsing/face-parsing.ts';



let models: ModelRegistry;
let human: HumanLike;
let parser: FaceParser;

beforeAll(async () => {
  models = new ModelRegistry();
  human = await models.get<HumanLike>('human');
  parser = await models.get<FaceParser>('bisenet-face-parsing');
});

/** tfjs and ONNX logits of one face crop, both NHWC [side/8, side/8, 19]. */
async function bothLogits(image: RasterImage, side: number): Promise<{ tfjs: Float32Array; onnx: Float32Array }> {
  const [face] = await detectFaces(human, image);
  expect(face).toBeDefined();
  const crop = await cropRoi(parser.tf, image, parsingRoi(face), side, false, 127.5);
  const t: TensorLike[] = [crop];
  try {
    t.push(await parserLogits(parser, crop));
    const tfjs = Float32Array.from(await t[1].data());
    const net = await openLocalOnnx(bisenetToOnnx(await readBisenetGraph(BISENET_MODEL_JSON), side, LOGITS_NODE), 1);
    const out = await net.run({ [ONNX_INPUT]: { data: Float32Array.from(await crop.data()), dims: [1, side, side, 3] } }, [ONNX_LOGITS]);
    expect(out[ONNX_LOGITS].dims).toEqual([1, side / STRIDE, side / STRIDE, PARSING_CLASSES.length]);
    return { tfjs, onnx: out[ONNX_LOGITS].data };
  } finally {
    parser.tf.dispose(t);
  }
}

function compare(a: Float32Array, b: Float32Array) {
  const C = PARSING_CLASSES.length;
  let maxDiff = 0, maxAbs = 0, agree = 0;
  for (let i = 0; i < a.length; i++) {
    maxDiff = Math.max(maxDiff, Math.abs(a[i] - b[i]));
    maxAbs = Math.max(maxAbs, Math.abs(a[i]));
  }
  for (let p = 0; p < a.length / C; p++) {
    let ia = 0, ib = 0;
    for (let c = 1; c < C; c++) {
      if (a[p * C + c] > a[p * C + ia]) ia = c;
      if (b[p * C + c] > b[p * C + ib]) ib = c;
    }
    if (ia === ib) agree++;
  }
  return { maxDiff, maxAbs, agree: agree / (a.length / C) };
}

describe('BiSeNetV2 converted to ONNX', () => {
  // 512 is the parser's default side; 392 gives odd sides deeper down (49, 25, 13), so uneven SAME pads.
  it.each([
    ['obama_official_portrait.jpg', 512],
    ['astronaut_eileen_collins.png', 392],
  ])('gives the tfjs graph\'s logits on a face crop of %s at %i px', async (file, side) => {
    const { tfjs, onnx } = await bothLogits(await fixtureRaster(file), side);
    const r = compare(tfjs, onnx);
    // Logits reach about 10; float32 sums in another order differ by about 1e-5.
    expect(r.maxAbs).toBeGreaterThan(1);
    expect(r.maxDiff).toBeLessThan(1e-3);
    expect(r.agree).toBeGreaterThanOrEqual(0.995);
  }, 120_000);

  it('is what the parser runs, and the parser falls back to tfjs without it', async () => {
    const image = await fixtureRaster('obama_official_portrait.jpg');
    const [face] = await detectFaces(human, image);
    const crop = await cropRoi(parser.tf, image, parsingRoi(face), 256, false, 127.5);
    try {
      const viaOnnx = await parserLogitsData(parser, crop, 256);
      expect(await parser.onnx?.(256)).toBeDefined();
      const viaTfjs = await parserLogitsData({ ...parser, onnx: undefined }, crop, 256);
      expect(compare(viaTfjs, viaOnnx).maxDiff).toBeLessThan(1e-3);
    } finally {
      parser.tf.dispose([crop]);
    }
  }, 120_000);

  it('with int8 convolutions (QDQ) gives the float logits\' classes on 98.5 % of cells or more, in integer convolutions', async () => {
    const image = await fixtureRaster('biden_obama_laughing_heads.jpg');
    const faces = (await detectFaces(human, image)).filter((f) => f.mesh);
    expect(faces.length).toBeGreaterThanOrEqual(2);
    const float = await openLocalOnnx(await bisenetOnnxBytes(512), 1), int8 = await openLocalOnnx(await bisenetOnnxBytes(512, { int8: true }), 1);
    for (const face of faces) {
      const crop = await cropRoi(parser.tf, image, parsingRoi(face), 512, false, 127.5);
      try {
        const data = Float32Array.from(await crop.data()), dims = [1, 512, 512, 3];
        const a = (await float.run({ [ONNX_INPUT]: { data, dims } }, [ONNX_LOGITS]))[ONNX_LOGITS].data;
        const b = (await int8.run({ [ONNX_INPUT]: { data, dims } }, [ONNX_LOGITS]))[ONNX_LOGITS].data;
        const r = compare(a, b);
        expect(r.agree).toBeGreaterThanOrEqual(0.985);
        // Not the float network under another name: the logits move a little.
        expect(r.maxDiff).toBeGreaterThan(1e-3);
        expect(r.maxDiff).toBeLessThan(2);
      } finally {
        parser.tf.dispose([crop]);
      }
    }
    // Every convolution reads int8 weights (and the activations the ranges calibrated): none is left in float.
    const bytes = new TextDecoder('latin1').decode(await bisenetOnnxBytes(256, { int8: true }));
    const count = (op: string) => bytes.split(op).length - 1;
    // Each node's op and its name (`${op}_${k}`): two mentions a node. 56 convolutions' weights, 67 activations.
    expect(count('DequantizeLinear')).toBeGreaterThanOrEqual(2 * (56 + 67));
    expect(count('QuantizeLinear')).toBeGreaterThanOrEqual(2 * 67);
  }, 180_000);

  it('refuses sides the graph cannot take and ops it does not know', async () => {
    await expect(bisenetOnnxBytes(100)).rejects.toThrow(/multiple of 8/);
    const graph = await readBisenetGraph(BISENET_MODEL_JSON);
    const nodes = graph.nodes.map((n) => (n.op === 'Sigmoid' ? { ...n, op: 'Tanh' } : n));
    expect(() => bisenetToOnnx({ ...graph, nodes }, 256, LOGITS_NODE)).toThrow(/op Tanh .* is not supported/);
  });
});
