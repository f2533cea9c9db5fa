/**
 * Speed of apparel-background-removal: per photo, the model steps (matte, face, keypoints, objects, hair)
 * once, the face parser around the largest faces (wall and CPU ms of the process, all threads), then
 * the garment parse by the rules alone (as before the learned model) and by the rules plus the learned
 * model, interleaved `--reps` times, and the masks and encoding. Prints medians per photo and the
 * whole effect's time with each parse. The check half's first photos (scripts/datasets/apparel-split.ts) and the
 * portrait fixture.
 *   npx tsx scripts/bench/apparel.ts [--photos N] [--reps N]
 */
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import {
  apparelEffect as effect, apparelModel, type ApparelParams as P, type ApparelState as State, buildMasks,
  encodeOutputs, garmentClasses, ModelRegistry, parseFacesAround, parseGarments, parseInput, stepContext
} from '../../engine/for-scripts.ts';
import { apparelPhotos, testdata } from '../datasets/apparel-split.ts';

const args = process.argv.slice(2);
const opt = (name: string, d: number) => { const i = args.indexOf(name); return i >= 0 ? Number(args[i + 1]) : d; };
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const files = [path.join(repoRoot, 'engine/test/fixtures/obama_official_portrait.jpg'),
  ...(apparelPhotos() ?? []).filter((p) => p.half === 'check').slice(0, opt('--photos', 5)).map((p) => path.join(testdata, p.rel))];
const reps = opt('--reps', 5);
const models = new ModelRegistry({ threads: 2 });
const kit = { models, signal: new AbortController().signal };
const model = apparelModel();
const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1];
console.log(`load average ${loadavg().map((v) => v.toFixed(1)).join(' ')} on ${cpus().length} cores; ${reps} interleaved runs of each parse per photo`);
console.log(`${'photo'.padEnd(30)} ${'models'.padStart(7)} ${'face parse'.padStart(14)} ${'rules'.padStart(7)} ${'learned'.padStart(8)} ${'masks'.padStart(7)}  (ms)`);
const totals = { rules: [] as number[], learned: [] as number[] }, heads: number[] = [];
// A first photo warms the models up and is not counted.
for (const [n, file] of [files[0], ...files].entries()) {
  const { data, info } = await sharp(file).rotate().raw().toBuffer({ resolveWithObject: true });
  const image = { data, width: info.width, height: info.height, channels: info.channels as 3 | 4 };
  const c = stepContext<P, State>(image, { out_mode: 0, cloth_class: [...garmentClasses], return_form: 'mask' } as P, models);
  let t = performance.now();
  for (const step of effect.steps.slice(0, 2)) await step(c, kit);
  const modelsMs = performance.now() - t;
  t = performance.now();
  const cpu = process.cpuUsage();
  await parseFacesAround(c, kit);
  const headsMs = performance.now() - t, headsCpu = process.cpuUsage(cpu);
  const times = { rules: [] as number[], learned: [] as number[] };
  for (let r = 0; r < reps; r++) for (const kind of ['rules', 'learned'] as const) {
    t = performance.now();
    c.state.parse = parseGarments(await parseInput(c), { model: kind === 'rules' ? null : model });
    times[kind].push(performance.now() - t);
  }
  t = performance.now();
  await buildMasks(c, kit); await encodeOutputs(c, kit);
  const masksMs = performance.now() - t;
  if (n === 0) continue;
  for (const kind of ['rules', 'learned'] as const) totals[kind].push(modelsMs + headsMs + median(times[kind]) + masksMs);
  heads.push(headsMs);
  console.log(`${path.basename(file).padEnd(30)} ${modelsMs.toFixed(0).padStart(7)} ${`${headsMs.toFixed(0)}/${((headsCpu.user + headsCpu.system) / 1000).toFixed(0)} (${c.state.faces!.length})`.padStart(14)} ${median(times.rules).toFixed(0).padStart(7)} ${median(times.learned).toFixed(0).padStart(8)} ${masksMs.toFixed(0).padStart(7)}`);
}
console.log(`face parse (wall/CPU ms, faces found) median ${median(heads).toFixed(0)} ms wall; whole effect (with it), median over the photos: rules ${median(totals.rules).toFixed(0)} ms, learned ${median(totals.learned).toFixed(0)} ms`);
