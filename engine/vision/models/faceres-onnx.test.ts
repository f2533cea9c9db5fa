import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RasterImage } from '../../image/raster.ts';
import type { HumanLike } from './human.ts';
import { ModelRegistry } from './registry.ts';
import { readTfGraph } from './tf-graph.ts';
import { registryNets, runAttributeModel } from '../attributes/attribute-models.ts';
import { faceRoi } from '../attributes/attribute-crops.ts';
import { ATTRIBUTE_MODELS } from '../attributes/attribute-specs.ts';
import { faceAttributes } from '../attributes/attributes.ts';
import { detectFaces, type Face } from '../faces/detect.ts';
import { faceresModelJson, faceresToOnnx } from './faceres-onnx.ts';

const fixtures = fileURLToPath(new URL('../../test/fixtures/', import.meta.url));
const load = async (name: string): Promise<RasterImage> => {
  const { data, info } = await sharp(path.join(fixtures, name)).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
};

let models: ModelRegistry;
let human: HumanLike;
let image: RasterImage;
let faces: Face[];

beforeAll(async () => {
  models = new ModelRegistry();
  human = await models.get<HumanLike>('human');
  image = await load('obama_official_portrait.jpg');
  faces = await detectFaces(human, image);
  expect(faces).toHaveLength(1);
});

describe('FaceRes-deep on onnxruntime', () => {
  it('gives the tfjs graph\'s outputs under both input conventions, for a batch of views and scales', async () => {
    const nets = registryNets(models);
    // Two scales and both views: a batch of four, as the analyzer runs it.
    const rois = [faceRoi(faces[0], 1.6), faceRoi(faces[0], 1.2)];
    for (const id of ['faceres-deep', 'faceres-deep-caffe']) {
      const tfjs = await runAttributeModel(human, ATTRIBUTE_MODELS[id], image, rois, true);
      const onnx = await runAttributeModel(human, ATTRIBUTE_MODELS[id], image, rois, true, nets);
      expect(onnx).toHaveLength(2);
      onnx.forEach((o, i) => {
        expect(Math.abs(o.male! - tfjs[i].male!)).toBeLessThan(1e-4);
        expect(o.ageDist).toHaveLength(100);
        o.ageDist!.forEach((p, k) => expect(Math.abs(p - tfjs[i].ageDist![k])).toBeLessThan(1e-4));
      });
    }
  });

  it('leaves the attributes as tfjs gives them', async () => {
    const [a] = await faceAttributes(human, image, faces);
    const [b] = await faceAttributes(human, image, faces, registryNets(models));
    // Values the same; probabilities (rounded to 4 places) within a rounding step.
    expect([b.age.value, b.gender.value, b.emotion.value]).toEqual([a.age.value, a.gender.value, a.emotion.value]);
    expect(Math.abs(b.age.probability - a.age.probability)).toBeLessThanOrEqual(2e-4);
    expect(Math.abs(b.gender.probability - a.gender.probability)).toBeLessThanOrEqual(2e-4);
  });

  it('refuses a graph with an op it does not know', async () => {
    const graph = await readTfGraph(faceresModelJson());
    const nodes = graph.nodes.map((n) => (n.op === 'Softmax' ? { ...n, op: 'LogSoftmax' } : n));
    expect(() => faceresToOnnx({ ...graph, nodes })).toThrow(/op LogSoftmax .* is not supported/);
  });
});
