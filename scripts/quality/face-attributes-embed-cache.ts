/**
 * The face embeddings the attribute nets already compute, per chip, for the classifiers of
 * scripts/quality/face-attributes-embed.ts: FaceRes-deep's 1024 pooled features on age's square (1.6x, caffe
 * input, plain: the run age makes anyway), face-api's age-gender net's 512 pooled features on its square (1.2x,
 * edge border, plain and mirrored: the runs age and gender make anyway), and face-api's expression net's features
 * on emotion's square (1.2x, black border, plain and mirrored). The chips, their labels and halves are those of
 * face-attributes-combine.ts's cache (--combine), so both scripts read the same faces.
 *
 *   npx tsx scripts/quality/face-attributes-embed-cache.ts [--combine FILE] [--cache FILE]
 *
 * --combine (default /tmp/face-attributes/combine.json): face-attributes-combine.ts's cache (labels, sources,
 * halves, the shipped answers). --cache (default /tmp/face-attributes/embed.json): kept and resumed.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  ATTRIBUTE_MODELS, type Border, decodeImage, detectFaces, faceRoi, type HumanLike, ModelRegistry, registryNets,
  runAttributeModelViews, wholeRoi
} from '../../engine/for-scripts.ts';
import { findChipFace } from '../datasets/face-attributes-chip.ts';
import { testdata } from './face-attributes-raw.ts';

const args = process.argv.slice(2);
const arg = (name: string) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const combinePath = arg('--combine') ?? '/tmp/face-attributes/combine.json';
const cachePath = arg('--cache') ?? '/tmp/face-attributes/embed.json';

/** Per chip: each run's plain and (where kept) mirrored features, rounded to 4 significant digits. */
export type Embeddings = Record<string, { plain: number[]; mirror?: number[] }>;
/** The runs, as the shipped PIPELINE makes them: model, square, border, whether the mirror is kept. */
export const EMBED_RUNS: Record<string, [string, number, Border, boolean]> = {
  'faceres-deep@1.6': ['faceres-deep-caffe', 1.6, 'black', false],
  'faceapi-age-gender@1.2e': ['faceapi-age-gender', 1.2, 'edge', true],
  'faceapi-expression@1.2': ['faceapi-expression', 1.2, 'black', true],
};

const round = (v: number[]) => v.map((x) => Number(x.toPrecision(4)));

async function main() {
  if (!existsSync(combinePath)) throw new Error(`no combine cache at ${combinePath}: run face-attributes-combine.ts first`);
  const chips = JSON.parse(readFileSync(combinePath, 'utf8')) as Record<string, { source: string; set: string }>;
  const cache: Record<string, Embeddings> = existsSync(cachePath) ? JSON.parse(readFileSync(cachePath, 'utf8')) : {};
  const registry = new ModelRegistry();
  const human = await registry.get<HumanLike>('human');
  const nets = registryNets(registry);
  const save = () => { mkdirSync(path.dirname(cachePath), { recursive: true }); writeFileSync(cachePath, JSON.stringify(cache)); };
  const t0 = performance.now();
  let done = 0;
  for (const [key, chip] of Object.entries(chips)) {
    if (cache[key]) continue;
    // The combine script's keys: a shared chip's path under the test data, a portrait's `path#k`, an extra's own path.
    const [rel, k] = key.split('#');
    const file = chip.source === 'shared' || chip.source === 'portrait' ? path.join(testdata, rel) : rel;
    const image = await decodeImage(readFileSync(file), file.endsWith('.png') ? 'png' : 'jpeg', 50e6);
    const face = k === undefined ? (await findChipFace(human, image)).face : (await detectFaces(human, image))[Number(k)];
    const out: Embeddings = {};
    // Gender's chips need no expression features (the emotion classifiers read the emotion crops').
    for (const [name, [model, scale, border, mirror]] of Object.entries(EMBED_RUNS).filter(([, [m]]) => m !== 'faceapi-expression' || chip.set === 'emotion')) {
      const roi = face ? faceRoi(face, scale) : wholeRoi(image);
      const { plain, mirrored } = await runAttributeModelViews(human, ATTRIBUTE_MODELS[model], image, [roi], border, nets);
      out[name] = { plain: round(plain[0].embedding!), ...(mirror && { mirror: round(mirrored[0].embedding!) }) };
    }
    cache[key] = out;
    if (++done % 10 === 0) { save(); console.error(`  ${done} chips, ${((performance.now() - t0) / 1000).toFixed(0)} s`); }
  }
  save();
  console.log(`embeddings: ${Object.keys(cache).length} chips (${cachePath})`);
  process.exit(0);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
