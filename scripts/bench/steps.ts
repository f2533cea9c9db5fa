/**
 * Where each effect's time goes, step by step, in this process (the same code a worker runs, with the
 * models opened here: ONNX sessions with 2 threads, as the model host's): for each effect its first run
 * (models loading included, the first request after start), then `runs` more, and per step the median wall
 * ms, process CPU ms (every thread) and the wall ms spent in model runs (ONNX and Human's tfjs; the model
 * clock, engine/pipeline/timing.ts). The load average is printed beside them: the machine is shared.
 *
 *   npx tsx scripts/bench/steps.ts [slug ...] [--runs N] [--save DIR] [--crop-sides 1024,512] [--host]
 *
 * --host: the ONNX networks run in a model host thread, as in the engine (engine/workers/script-host.ts), so
 * that the work a step does while a network runs overlaps it as it does in a worker; without it they run in
 * this thread, where onnxruntime-node blocks until each run ends (nothing overlaps a run).
 * ATELIER_OPTIMIZED_MODEL_DIR: the host's folder of optimised copies (none without it).
 *
 * --crop-sides: smart crop with ISNet at each of these input sides (the effect's is SALIENCY_SIDE), run in
 * turn within each round (interleaved, so the machine's load falls on all alike), reported side by side.
 * --save DIR writes each effect's images of the last run (to compare outputs between versions).
 * Photos and params are the studio's and the targets' (issue 32): face beauty on the 1 MP portrait, skin
 * analysis on it enlarged to 2 MP with every map, product cutout on it cropped to 1000x667, the face analyzer on it with every attribute, smart crop to 910x512, apparel with six classes,
 * smart skin on the 1 MP portrait with every retouch.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { skinMaps } from '../../contract/endpoints/skin-analysis-advanced.ts';
import { faceAttributeTypes } from '../../contract/endpoints/face-analyzer.ts';
import { validateFields } from '../../contract/validate.ts';
import type { Endpoint } from '../../contract/endpoint.ts';
import {
  decodeImage, type Effect, effectModules, ModelRegistry, runEffect, scriptModelHost, smartCrop, type StepTime
} from '../../engine/for-scripts.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const opt = (name: string) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const runs = Number(opt('--runs') ?? 5);
const save = opt('--save');
const cropSides = opt('--crop-sides')?.split(',').map(Number);
const valued = new Set(['--runs', '--save', '--crop-sides']);
const slugs = args.filter((a, i) => !a.startsWith('--') && !valued.has(args[i - 1]));

const portrait = readFileSync(path.join(root, 'engine/test/fixtures/obama_official_portrait.jpg'));
const cases: Record<string, { photo: () => Promise<Buffer>; fields: Record<string, string>; note: string }> = {
  'face-beauty': { photo: async () => portrait, fields: {}, note: 'obama 1.0 MP' },
  'skin-analysis-advanced': {
    photo: () => sharp(portrait).resize(1274, 1592).jpeg({ quality: 92 }).toBuffer(),
    fields: { return_maps: skinMaps.join(',') }, note: 'obama at 1274x1592 (2.0 MP), every map',
  },
  'face-analyzer': {
    photo: async () => portrait, fields: { face_attributes_type: faceAttributeTypes.filter((t) => t !== 'None').join(',') }, note: 'obama 1.0 MP, every attribute',
  },
  'commodity-background-removal': {
    photo: () => sharp(portrait).resize(1000, 667, { fit: 'cover' }).jpeg({ quality: 92 }).toBuffer(), fields: {}, note: 'obama cropped to 1000x667 (0.67 MP), transparent PNG',
  },
  'image-cropping': { photo: async () => portrait, fields: { width: '910', height: '512' }, note: 'obama 1.0 MP to 910x512' },
  'apparel-background-removal': { photo: async () => portrait, fields: { cloth_class: 'tops,coat,pants,bag,shoes,hat' }, note: 'obama 1.0 MP, 6 classes' },
  'smart-skin-advanced': { photo: async () => portrait, fields: { smart_skin: '1' }, note: 'obama 1.0 MP, smart skin' },
};

const mid = (v: number[]) => [...v].sort((x, y) => x - y)[v.length >> 1];
const load = () => os.loadavg().map((v) => v.toFixed(1)).join(' ');
const hosted = args.includes('--host')
  ? scriptModelHost({ threads: 2, idleMs: 0, preload: [], optimizedDir: process.env.ATELIER_OPTIMIZED_MODEL_DIR })
  : undefined;
const models = new ModelRegistry({ threads: 2, host: hosted?.host });
console.log(`ONNX networks run ${hosted ? 'in a model host thread (as in the engine)' : 'in this thread'}`);

for (const slug of slugs.length ? slugs : Object.keys(cases)) {
  const k = cases[slug];
  const endpoint = (await import(`../../contract/endpoints/${slug}.ts`)).default as Endpoint;
  const module = await import(effectModules[slug]);
  // Variants of one effect, run interleaved: smart crop at several ISNet sides, else the effect as it is.
  const variants: { label: string; effect: Effect }[] = slug === 'image-cropping' && cropSides
    ? cropSides.map((side) => ({ label: `ISNet at ${side}`, effect: smartCrop(side) as Effect }))
    : [{ label: '', effect: module.default as Effect }];
  const params = validateFields(endpoint, k.fields, new Set(['image']));
  const jpeg = await k.photo();
  const once = async (effect: Effect) => {
    const steps: StepTime[] = [];
    const t = performance.now(), u = process.cpuUsage();
    const image = await decodeImage(jpeg, 'jpeg', 50e6);
    steps.push({ step: 'decode', ms: performance.now() - t, cpuMs: process.cpuUsage(u).user / 1000 + process.cpuUsage(u).system / 1000, modelMs: 0 });
    const out = await runEffect(effect, { image, params }, { models, signal: new AbortController().signal, onStep: (s) => steps.push(s) });
    const cpu = process.cpuUsage(u);
    steps.push({ step: 'total', ms: performance.now() - t, cpuMs: (cpu.user + cpu.system) / 1000, modelMs: steps.reduce((s, x) => s + x.modelMs, 0) });
    return { steps, out };
  };
  const fmt = (s: StepTime[]) => s.map((x) => `${x.step} ${x.ms.toFixed(0)}/${x.cpuMs.toFixed(0)}/${x.modelMs.toFixed(0)}`).join(', ');
  console.log(`\n${slug} (${k.note}); ms wall/cpu/models; load ${load()}`);
  const tag = (v: { label: string }) => (v.label ? `${v.label}: ` : '');
  const all = variants.map(() => [] as StepTime[][]);
  const last = [];
  for (const v of variants) {
    const rssBefore = process.memoryUsage().rss;
    const first = await once(v.effect);
    console.log(`  ${tag(v)}first run (models load): ${fmt(first.steps)}; rss ${(rssBefore / 2 ** 20).toFixed(0)} -> ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`);
    last.push(first.out);
  }
  for (let i = 0; i < runs; i++) {
    for (const [j, v] of variants.entries()) { const r = await once(v.effect); all[j].push(r.steps); last[j] = r.out; }
  }
  for (const [j, v] of variants.entries()) {
    const med = all[j][0].map((s, n) => ({ step: s.step, ms: mid(all[j].map((r) => r[n].ms)), cpuMs: mid(all[j].map((r) => r[n].cpuMs)), modelMs: mid(all[j].map((r) => r[n].modelMs)) }));
    console.log(`  ${tag(v)}median of ${runs}:          ${fmt(med)}; load ${load()}`);
    if (v.label) console.log(`    ${v.label}: window ${JSON.stringify(last[j].data?.retain_location)}`);
  }
  if (save) {
    mkdirSync(save, { recursive: true });
    for (const [j, v] of variants.entries()) {
      const suffix = v.label ? `.${v.label.replace(/\W+/g, '-')}` : '';
      for (const [name, img] of Object.entries(last[j].images)) writeFileSync(path.join(save, `${slug}${suffix}.${name.replace(':', '-')}.${img.format}`), img.data);
      if (last[j].data) writeFileSync(path.join(save, `${slug}${suffix}.json`), JSON.stringify(last[j].data, null, 1));
    }
  }
}
await hosted?.close();
process.exit(0);
