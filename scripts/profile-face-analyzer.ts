/**
 * Where the face analyzer's time goes, step by step in the effect's order, with every attribute: CPU ms of
 * this process per step (medians; onnxruntime's threads included), which a loaded shared machine inflates
 * far less than wall time. Beside the steps, the whole effect through runEffect, so what the steps leave
 * out (answer, job facts) shows as the difference.
 *
 *   tsx scripts/profile-face-analyzer.ts [runs=3]
 */
import path from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { faceAttributeTypes } from '../contract/endpoints/face-analyzer.ts';
import effect from '../engine/effects/face-analyzer/effect.ts';
import type { RasterImage } from '../engine/image/raster.ts';
import { runEffect } from '../engine/pipeline/run.ts';
import { ModelRegistry } from '../engine/vision/models/registry.ts';
import type { HumanLike } from '../engine/vision/models/human.ts';
import { detectFaces } from '../engine/vision/faces/detect.ts';
import { registryNets, runAttributeModel } from '../engine/effects/face-analyzer/analysis/attribute-models.ts';
import { faceRoi, type CropCache } from '../engine/effects/face-analyzer/analysis/attribute-crops.ts';
import { ATTRIBUTE_MODELS } from '../engine/effects/face-analyzer/analysis/attribute-specs.ts';
import { ANALYZER_PARSING, HAIR_PERSON_MODEL, HAIR_RVM_SIDE, PIPELINE } from '../engine/effects/face-analyzer/tuning.ts';
import { geometryAttributes } from '../engine/effects/face-analyzer/analysis/geometry-attributes.ts';
import { partAttributes } from '../engine/effects/face-analyzer/analysis/part-attributes.ts';
import { scaleFace, workScale } from '../engine/effects/face-analyzer/analysis/part-inputs.ts';
import { hairFromMatte } from '../engine/vision/matting/hair.ts';
import { personMatteWith } from '../engine/vision/matting/person.ts';
import { parseFaceAt, parsingWindow, type FaceParser } from '../engine/vision/parsing/face-parsing.ts';
import { partsLattice } from '../engine/effects/face-analyzer/analysis/part-sampling.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
const runs = Number(process.argv[2] ?? 3);
const files = [path.join(root, 'engine/test/fixtures/obama_official_portrait.jpg'), path.join(root, 'engine/test/fixtures/astronaut_eileen_collins.png')];
if (existsSync(path.join(testdata, 'portraits'))) for (const f of ['group3_voc_2008_001322.jpg', 'two_men_glasses_jobs_gates.jpg', 'woman_speaker_rania_wef.jpg']) files.push(path.join(testdata, 'portraits', f));
else console.log(`(no ${testdata}: only the fixtures are profiled)`);

const models = new ModelRegistry({ threads: 2 });
const human = await models.get<HumanLike>('human');
const parser = await models.get<FaceParser>('bisenet-face-parsing');
const all = faceAttributeTypes.filter((t) => t !== 'None');
const mid = (v: number[]) => [...v].sort((x, y) => x - y)[v.length >> 1];
const stages = ['detect', 'age', 'gender', 'emotion', 'workCopy', 'parseModel', 'parseWarp', 'matte', 'hair', 'parts', 'geometry'];
console.log(`load ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
console.log(`CPU ms per step (median of ${runs}); 'effect' is the whole effect through runEffect`);
console.log(['image', 'WxH', 'work', 'faces', ...stages, 'sum', 'effect'].join('\t'));
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const sums: Record<string, number> = {};
for (const file of files) {
  const { data, info } = await sharp(file).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const image: RasterImage = { data, width: info.width, height: info.height, channels: 3 };
  const times: Record<string, number[]> = Object.fromEntries([...stages, 'sum', 'effect'].map((s) => [s, []]));
  let n = 0, work = '';
  for (let r = 0; r <= runs; r++) {
    const T: Record<string, number> = Object.fromEntries(stages.map((s) => [s, 0]));
    let t = cpu();
    const lap = (k: string) => { const now = cpu(); T[k] += now - t; t = now; };
    const faces = (await detectFaces(human, image, { meshFaces: 5 })).slice(0, 5); lap('detect');
    n = faces.length;
    // Gender reads age's squares (as attributes.ts has them share them).
    const crops: CropCache = new Map();
    for (const [k, s] of [['age', PIPELINE.age], ['gender', PIPELINE.gender], ['emotion', PIPELINE.emotion]] as const) {
      for (const m of s.models) await runAttributeModel(human, ATTRIBUTE_MODELS[m], image, faces.map((f) => faceRoi(f, s.scale)), s.flip, registryNets(models), s.border, crops);
      lap(k);
    }
    // part-inputs.ts, step by step.
    const k = workScale(faces, ANALYZER_PARSING);
    const w = k < 1 ? await sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } }).resize(Math.round(info.width * k), Math.round(info.height * k), { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true }) : { data, info };
    const wimg: RasterImage = { data: w.data, width: w.info.width, height: w.info.height, channels: 3 };
    const wf = faces.map((f) => scaleFace(f, wimg.width / info.width));
    work = `${wimg.width}x${wimg.height}`;
    lap('workCopy');
    const ps = [];
    for (const f of wf.filter((g) => g.mesh)) ps.push(await parseFaceAt(parser, wimg, f, partsLattice(parsingWindow(f, wimg)), ANALYZER_PARSING));
    const parseAll = cpu() - t, model = ps.reduce((s, p) => s + p.ms.model, 0), warp = ps.reduce((s, p) => s + p.ms.warp, 0);
    // parseFaces reports wall ms of its two halves: the CPU is shared out in that proportion.
    T.parseModel += (parseAll * model) / Math.max(1e-9, model + warp); T.parseWarp += (parseAll * warp) / Math.max(1e-9, model + warp); t = cpu();
    const matte = await personMatteWith(models, wimg, HAIR_PERSON_MODEL, { rvmSide: HAIR_RVM_SIDE, small: true }); lap('matte');
    const hair = await hairFromMatte(wimg, matte, wf, { small: true }); lap('hair');
    for (let i = 0; i < faces.length; i++) {
      if (ps[i]) partAttributes(wf[i], wimg, ps[i], hair);
      lap('parts');
      geometryAttributes(faces[i], image, {}); lap('geometry');
    }
    const c0 = cpu();
    await runEffect(effect, { image, params: { max_face_num: 5, face_attributes_type: all } }, { models, signal: new AbortController().signal });
    const whole = cpu() - c0;
    if (r > 0) {
      for (const s of stages) times[s].push(T[s]);
      times.sum.push(stages.reduce((q, s) => q + T[s], 0));
      times.effect.push(whole);
    }
  }
  for (const s of [...stages, 'sum', 'effect']) sums[s] = (sums[s] ?? 0) + mid(times[s]);
  console.log([path.basename(file), `${info.width}x${info.height}`, work, n, ...[...stages, 'sum', 'effect'].map((s) => mid(times[s]).toFixed(0))].join('\t'));
}
console.log(['total', '', '', '', ...[...stages, 'sum', 'effect'].map((s) => sums[s].toFixed(0))].join('\t'));
console.log(`load ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
process.exit(0);
