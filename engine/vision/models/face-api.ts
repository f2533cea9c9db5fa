/**
 * @vladmandic/face-api's age-and-gender and seven-expression nets and its SSD MobileNet v1 face detector (MIT;
 * weights in its model/ folder, never downloaded), run on the same tfjs-core instance and wasm backend as Human (face-api's node-wasm build
 * requires the hoisted @tensorflow/tfjs, whose core is the one Human's build requires).
 *
 * Loading reads the weight files and the library only: the weight tensors are made at the first run, when
 * Human (loaded first by every effect that lists it) has already set the wasm backend, so no tensor is ever
 * made on another backend. The attribute nets read 112x112 RGB squares of 0..255, the detector one 512x512 square.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { packageDir } from './package-dir.ts';

const require = createRequire(import.meta.url);

const faceApiDir = () => packageDir('@vladmandic/face-api');
export const FACE_API_SIDE = 112;
const NETS = { ageGender: 'age_gender_model', expression: 'face_expression_model', ssd: 'ssd_mobilenetv1_model' } as const;
/** The SSD MobileNet v1 face detector's input side (face-api resizes any input square to it). */
export const SSD_SIDE = 512;
type NetName = keyof typeof NETS;

/** face-api's expression order; faceApiEmotion maps it to the API's codes. */
export const FACE_API_EXPRESSIONS = ['neutral', 'happy', 'sad', 'angry', 'fearful', 'disgusted', 'surprised'] as const;

/** The files the nets need, for the catalog's check. */
export const faceApiFiles = (): string[] => [
  path.join(faceApiDir(), 'dist', 'face-api.node-wasm.js'),
  ...Object.values(NETS).flatMap((n) => [`${n}-weights_manifest.json`, `${n}.bin`].map((f) => path.join(faceApiDir(), 'model', f))),
];

interface Tensor { shape: number[]; data(): Promise<ArrayLike<number>>; dispose(): void }
interface FaceApiNet { loadFromWeightMap(map: unknown): void; forwardInput(input: unknown): unknown }
interface SsdNet extends FaceApiNet { locateFaces(input: unknown, opts: { minConfidence: number; maxResults: number }): Promise<{ score: number; relativeBox: { x: number; y: number; width: number; height: number } }[]> }
interface FaceApiModule {
  tf: { tensor3d(v: Float32Array, shape: number[], dtype: string): Tensor; io: { decodeWeights(b: ArrayBuffer, specs: unknown): unknown }; getBackend(): string; dispose(t: unknown): void };
  AgeGenderNet: new () => FaceApiNet;
  FaceExpressionNet: new () => FaceApiNet;
  SsdMobilenetv1: new () => SsdNet;
  toNetInput(inputs: Tensor[]): Promise<unknown>;
}

export interface FaceApiNets {
  /** Per square (n squares of FACE_API_SIDE² RGB, 0..255, one after another): age in years and P(male). */
  ageGender(squares: Float32Array, n: number): Promise<{ age: number; male: number }[]>;
  /** Per square: the seven expression probabilities in FACE_API_EXPRESSIONS order. */
  expression(squares: Float32Array, n: number): Promise<number[][]>;
  /**
   * Faces in one SSD_SIDE² RGB square (0..255) by the SSD MobileNet v1 detector (WIDER FACE): boxes as fractions
   * of the square's side, scores at least minScore.
   */
  ssdFaces(square: Uint8Array, minScore: number): Promise<{ x0: number; y0: number; w: number; h: number; score: number }[]>;
}

/** Reads the library and both nets' weights; tensors are made at the first run (see above). */
export async function loadFaceApi(): Promise<FaceApiNets> {
  const fa = require(path.join(faceApiDir(), 'dist', 'face-api.node-wasm.js')) as FaceApiModule;
  const files = await Promise.all(Object.entries(NETS).map(async ([name, file]) => {
    const dir = path.join(faceApiDir(), 'model');
    const [manifest, bin] = await Promise.all([readFile(path.join(dir, `${file}-weights_manifest.json`), 'utf8'), readFile(path.join(dir, `${file}.bin`))]);
    return [name, { specs: (JSON.parse(manifest) as { weights: unknown }[]).flatMap((g) => g.weights), bin }] as const;
  }));
  const weights = Object.fromEntries(files) as Record<NetName, { specs: unknown; bin: Buffer }>;
  const made: Partial<Record<NetName, FaceApiNet>> = {};
  const net = (name: NetName): FaceApiNet => {
    if (made[name]) return made[name];
    if (fa.tf.getBackend() !== 'wasm') throw new Error(`face-api nets need the wasm backend (Human's), found ${fa.tf.getBackend()}`);
    const n = name === 'ageGender' ? new fa.AgeGenderNet() : name === 'ssd' ? new fa.SsdMobilenetv1() : new fa.FaceExpressionNet();
    const { specs, bin } = weights[name];
    n.loadFromWeightMap(fa.tf.io.decodeWeights(bin.buffer.slice(bin.byteOffset, bin.byteOffset + bin.byteLength) as ArrayBuffer, specs));
    return (made[name] = n);
  };
  const inputs = (squares: Float32Array, n: number): Tensor[] => {
    const per = FACE_API_SIDE * FACE_API_SIDE * 3;
    return Array.from({ length: n }, (_, i) => fa.tf.tensor3d(squares.subarray(i * per, (i + 1) * per), [FACE_API_SIDE, FACE_API_SIDE, 3], 'float32'));
  };
  const run = async <T>(name: NetName, squares: Float32Array, n: number, read: (out: unknown) => Promise<T>): Promise<T> => {
    const t = inputs(squares, n);
    let out: unknown;
    try {
      out = net(name).forwardInput(await fa.toNetInput(t));
      return await read(out);
    } finally {
      fa.tf.dispose(t);
      if (out) fa.tf.dispose(out);
    }
  };
  return {
    ageGender: (squares, n) => run('ageGender', squares, n, async (out) => {
      const { age, gender } = out as { age: Tensor; gender: Tensor };
      const [a, g] = await Promise.all([age.data(), gender.data()]);
      fa.tf.dispose([age, gender]);
      return Array.from({ length: n }, (_, i) => ({ age: a[i], male: g[2 * i] }));
    }),
    ssdFaces: async (square, minScore) => {
      const t = fa.tf.tensor3d(Float32Array.from(square), [SSD_SIDE, SSD_SIDE, 3], 'float32');
      try {
        const found = await (net('ssd') as SsdNet).locateFaces(t, { minConfidence: minScore, maxResults: 200 });
        return found.map((d) => ({ x0: d.relativeBox.x, y0: d.relativeBox.y, w: d.relativeBox.width, h: d.relativeBox.height, score: d.score }));
      } finally {
        fa.tf.dispose(t);
      }
    },
    expression: (squares, n) => run('expression', squares, n, async (out) => {
      const p = await (out as Tensor).data();
      return Array.from({ length: n }, (_, i) => Array.from({ length: 7 }, (_, k) => p[7 * i + k]));
    }),
  };
}
