/**
 * What the attribute models actually read, as a PNG contact sheet: per shared chip of one half, the chip
 * as it is, then the gender and emotion models' input squares (attributes.ts PIPELINE's crop, the grey
 * models in grey), with the label and the module's answer; wrong answers are captioned in red.
 *
 *   tsx scripts/render/face-attributes-crops.ts OUT_DIR [--half fit|check] [--set age_gender|emotion] [--wrong] [--border black|edge]
 *
 * --border shows the squares with that border instead of PIPELINE's (the answers stay the module's).
 *
 * Writes OUT_DIR/<set>-<half>.png. Reads ../shared/testdata (ATELIER_TESTDATA overrides); exits 2 without it.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp, { type OverlayOptions } from 'sharp';
import {
  ATTRIBUTE_MODELS, ATTRIBUTE_PIPELINE as PIPELINE, attributeModelInputs, type Border, decodeImage, faceAttributes,
  faceRoi, type HumanLike, imageAttributes, ModelRegistry, registryNets, wholeRoi
} from '../../engine/for-scripts.ts';
import { findChipFace } from '../datasets/face-attributes-chip.ts';
import { EMOTION_NAMES, splitItems, type Half } from '../datasets/face-attributes-split.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
const args = process.argv.slice(2);
const argValue = (name: string) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const outDir = args[0];
if (!outDir || outDir.startsWith('--')) {
  console.error('usage: tsx scripts/render/face-attributes-crops.ts OUT_DIR [--half fit|check] [--set age_gender|emotion] [--wrong] [--border black|edge]');
  process.exit(1);
}
if (!existsSync(path.join(testdata, 'labels.json'))) {
  console.error(`face-attributes-crops: no test data at ${testdata} (labels.json missing)`);
  process.exit(2);
}
const half = (argValue('--half') ?? 'fit') as Half;
const sets = argValue('--set') ? [argValue('--set') as 'age_gender' | 'emotion'] : (['age_gender', 'emotion'] as const);
const onlyWrong = args.includes('--wrong');
const border = argValue('--border') as Border | undefined;

const labels = JSON.parse(readFileSync(path.join(testdata, 'labels.json'), 'utf8'));
const items = splitItems(testdata, labels).filter((i) => i.half === half);
const registry = new ModelRegistry();
const human = await registry.get<HumanLike>('human');
const nets = registryNets(registry);

const SHOW = 128;
const CAPTION = 34;
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** One square image (grey or RGB 0..255) shown SHOW x SHOW, nearest-neighbour so pixels stay visible. */
async function tile(data: Uint8Array, width: number, height: number, channels: 1 | 3 | 4): Promise<Buffer> {
  return sharp(Buffer.from(data), { raw: { width, height, channels } })
    .resize(SHOW, SHOW, { fit: 'contain', kernel: 'nearest', background: { r: 40, g: 40, b: 40 } })
    .removeAlpha().toColourspace('srgb').png().toBuffer();
}

mkdirSync(outDir, { recursive: true });
for (const set of sets) {
  const list = items.filter((i) => i.set === set);
  const models = set === 'emotion' ? PIPELINE.emotion.parts : PIPELINE.gender.parts;
  const cells: { images: Buffer[]; caption: string; wrong: boolean }[] = [];
  for (const item of list) {
    const image = await decodeImage(readFileSync(path.join(testdata, item.rel)), item.rel.endsWith('.png') ? 'png' : 'jpeg', 50e6);
    const { face, found } = await findChipFace(human, image);
    const a = face ? (await faceAttributes(human, image, [face], nets))[0] : await imageAttributes(human, image, nets);
    const images = [await tile(image.data, image.width, image.height, image.channels)];
    for (const step of models) {
      for (const m of step.models) {
        const roi = face ? faceRoi(face, step.scale) : wholeRoi(image);
        const [input] = await attributeModelInputs(human, ATTRIBUTE_MODELS[m], image, [roi], border ?? step.border);
        images.push(await tile(input.data, input.size, input.size, input.channels));
      }
    }
    const wrong = set === 'emotion' ? a.emotion.value !== item.emotion : a.gender.value !== item.gender;
    if (onlyWrong && !wrong) continue;
    const caption = set === 'emotion'
      ? `${EMOTION_NAMES[item.emotion!]} -> ${EMOTION_NAMES[a.emotion.value]} ${a.emotion.probability.toFixed(2)} (${found})`
      : `${item.gender ? 'F' : 'M'}${item.age} -> ${a.gender.value ? 'F' : 'M'} ${a.gender.probability.toFixed(2)}, ${a.age.value} (${found})`;
    cells.push({ images, caption, wrong });
  }
  const perCell = cells[0]?.images.length ?? 1;
  const cellW = perCell * SHOW + 8, cellH = SHOW + CAPTION;
  const cols = Math.max(1, Math.floor(1400 / cellW)), rows = Math.ceil(cells.length / cols);
  const composites: OverlayOptions[] = [];
  cells.forEach((c, k) => {
    const x0 = (k % cols) * cellW, y0 = Math.floor(k / cols) * cellH;
    c.images.forEach((img, j) => composites.push({ input: img, left: x0 + j * SHOW, top: y0 }));
    const svg = `<svg width="${cellW}" height="${CAPTION}" xmlns="http://www.w3.org/2000/svg"><text x="4" y="20" font-family="sans-serif" font-size="14" fill="${c.wrong ? '#ff5050' : '#d0d0d0'}">${esc(c.caption)}</text></svg>`;
    composites.push({ input: Buffer.from(svg), left: x0, top: y0 + SHOW });
  });
  const file = path.join(outDir, `${set}-${half}${onlyWrong ? '-wrong' : ''}${border ? `-${border}` : ''}.png`);
  await sharp({ create: { width: cols * cellW, height: Math.max(1, rows) * cellH, channels: 3, background: { r: 20, g: 20, b: 20 } } })
    .composite(composites).png().toFile(file);
  console.log(`${file}: ${cells.length} chips (${cells.filter((c) => c.wrong).length} wrong); columns: chip, ${models.flatMap((s) => s.models.map((m) => `${m} x${s.scale}`)).join(', ')}`);
}
process.exit(0);
