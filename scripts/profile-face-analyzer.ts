/**
 * Where the face analyzer's time goes, stage by stage in the effect's order: CPU ms of this process per
 * stage (medians), which a loaded shared machine inflates far less than wall time. With every attribute.
 *
 *   tsx scripts/profile-face-analyzer.ts [runs=3]
 */
import path from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import type { RasterImage } from '../engine/image/raster.ts';
import { ModelRegistry } from '../engine/vision/models/registry.ts';
import type { HumanLike } from '../engine/vision/models/human.ts';
import { detectFaces } from '../engine/vision/faces/detect.ts';
import { faceAttributes } from '../engine/vision/faces/attributes.ts';
import { geometryAttributes } from '../engine/vision/faces/geometry-attributes.ts';
import { ANALYZER_PARSING, partAttributes } from '../engine/vision/faces/part-attributes.ts';
import { partInputs } from '../engine/vision/faces/part-inputs.ts';
import { hairMask } from '../engine/vision/matting/person.ts';
import { parseFaces, type FaceParser } from '../engine/vision/parsing/face-parsing.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
const runs = Number(process.argv[2] ?? 3);
const files = [path.join(root, 'engine/test/fixtures/obama_official_portrait.jpg'), path.join(root, 'engine/test/fixtures/astronaut_eileen_collins.png')];
if (existsSync(path.join(testdata, 'portraits'))) for (const f of ['group3_voc_2008_001322.jpg', 'two_men_glasses_jobs_gates.jpg', 'woman_speaker_rania_wef.jpg']) files.push(path.join(testdata, 'portraits', f));

const models = new ModelRegistry({ threads: 2 });
const human = await models.get<HumanLike>('human');
const parser = await models.get<FaceParser>('bisenet-face-parsing');
const mid = (v: number[]) => [...v].sort((x, y) => x - y)[v.length >> 1];
const stages = ['detect', 'attrModels', 'parse', 'hair', 'parts', 'geometry'];
console.log(`CPU ms per stage (median of ${runs}); parse and hair on part-inputs.ts's working copy, as the analyzer runs them`);
console.log(['image', 'WxH', 'work', 'faces', ...stages, 'total'].join('\t'));
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
for (const file of files) {
  const { data, info } = await sharp(file).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const image: RasterImage = { data, width: info.width, height: info.height, channels: 3 };
  const times: Record<string, number[]> = Object.fromEntries([...stages, 'total'].map((s) => [s, []]));
  let n = 0, work = '';
  for (let r = 0; r <= runs; r++) {
    const T: Record<string, number> = Object.fromEntries(stages.map((s) => [s, 0]));
    let t = cpu();
    const lap = (k: string) => { const now = cpu(); T[k] += now - t; t = now; };
    const faces = (await detectFaces(human, image, { meshFaces: 5 })).slice(0, 5); lap('detect');
    n = faces.length;
    const a = await faceAttributes(human, image, faces); lap('attrModels');
    // partInputs, split in its two parts.
    const x = await partInputs(models, image, [], ANALYZER_PARSING);
    void x;
    const k = (await import('../engine/vision/faces/part-inputs.ts')).workScale(faces, ANALYZER_PARSING);
    const w = k < 1 ? await sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } }).resize(Math.round(info.width * k), Math.round(info.height * k), { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true }) : { data, info };
    const wimg: RasterImage = { data: w.data, width: w.info.width, height: w.info.height, channels: 3 };
    const { scaleFace } = await import('../engine/vision/faces/part-inputs.ts');
    const wf = faces.map((f) => scaleFace(f, wimg.width / info.width));
    work = `${wimg.width}x${wimg.height}`;
    const ps = await parseFaces(parser, wimg, wf.filter((f) => f.mesh), ANALYZER_PARSING); lap('parse');
    const hair = await hairMask(models, wimg, wf); lap('hair');
    for (let i = 0; i < faces.length; i++) {
      if (ps[i]) partAttributes(wf[i], wimg, ps[i], hair);
      lap('parts');
      geometryAttributes(faces[i], image, { happy: a[i].emotion.scores[1] }); lap('geometry');
    }
    if (r > 0) { for (const s of stages) times[s].push(T[s]); times.total.push(stages.reduce((q, s) => q + T[s], 0)); }
  }
  console.log([path.basename(file), `${info.width}x${info.height}`, work, n, ...[...stages, 'total'].map((s) => mid(times[s]).toFixed(0))].join('\t'));
}
console.log('load', readFileSync('/proc/loadavg', 'utf8').trim());
process.exit(0);
