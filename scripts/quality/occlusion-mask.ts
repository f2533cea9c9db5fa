/**
 * The occlusion mask alone (vision/regions/occlusion.ts), against the outlines of engine/test/fixtures/occluded/
 * and on unoccluded portraits (../shared/testdata: exemplars and single-face portraits, where any mask is a
 * false alarm). Per photo: the outline's share the mask covers inside the face's edit area (recall), the mask's
 * share of the mesh oval away from the outline (false alarm), and which cue marked the raw pixels. Both sets are
 * split by file in name order (odd places fit, even places check), as quality:occlusion splits its photos.
 *
 *   npx tsx scripts/quality/occlusion-mask.ts [--only substring] [--out DIR]   (DIR: overlays, red = mask, green = outline)
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import {
  faceRegions, type FaceParser, type HumanLike, meshFaceWidth, ModelRegistry, OCCLUSION_CUES, OCCLUSION_PARSING, occlusionPlane, parseFace
} from '../../engine/for-scripts.ts';
import { occlusionCases } from './occlusion-cases.ts';

const { values: opts } = parseArgs({ options: { only: { type: 'string' }, out: { type: 'string' } } });
const models = new ModelRegistry({ threads: 2 });
const human = await models.get<HumanLike>('human');
const parser = await models.get<FaceParser>('bisenet-face-parsing');

const sum: Record<string, number[]> = {};
for await (const { set, half, name, image, face, outline } of occlusionCases(human, opts.only)) {
  const t0 = performance.now();
  const parsing = await parseFace(parser, image, face, OCCLUSION_PARSING);
  const t1 = performance.now();
  const cues = new Uint8Array(parsing.win.w * parsing.win.h);
  const { plane, win } = occlusionPlane(face, parsing, image, cues);
  const t2 = performance.now();
  const W = image.width;
  const oval = faceRegions(face, image, image, ['faceOval']).faceOval!.data;
  const fw = meshFaceWidth(face.mesh), r = Math.round(0.02 * fw);
  const near = (x: number, y: number) => {
    if (!outline) return false;
    for (let dy = -r; dy <= r; dy += Math.max(1, r)) for (let dx = -r; dx <= r; dx += Math.max(1, r)) {
      const xx = x + dx, yy = y + dy;
      if (xx >= 0 && yy >= 0 && xx < W && yy < image.height && outline[yy * W + xx] >= 128) return true;
    }
    return false;
  };
  let ovalN = 0, falseN = 0, occN = 0, hitN = 0;
  const byCue = new Array(OCCLUSION_CUES.length).fill(0);
  for (let y = 0; y < win.h; y++) for (let x = 0; x < win.w; x++) {
    const gi = (win.y0 + y) * W + win.x0 + x, i = y * win.w + x;
    const inOval = oval[gi] >= 128;
    if (outline && outline[gi] >= 128 && inOval) { occN++; if (plane[i] > 0.5) hitN++; }
    if (inOval && !(outline && outline[gi] >= 128)) {
      if (near(win.x0 + x, win.y0 + y)) continue;
      ovalN++;
      if (plane[i] > 0.5) falseN++;
      if (cues[i]) byCue[cues[i]]++;
    }
  }
  const recall = occN ? hitN / occN : NaN, fa = falseN / Math.max(1, ovalN);
  const key = `${set} ${half}`;
  (sum[key] ??= []).push(set === 'occluded' ? recall : fa);
  console.log(`${set.padEnd(8)} ${half.padEnd(5)} ${name.padEnd(48)} ${outline ? `recall ${(100 * recall).toFixed(1).padStart(5)} %  ` : ''}false ${(100 * fa).toFixed(1).padStart(5)} % of oval  raw cues ${byCue.map((v, c) => (c && v ? `${OCCLUSION_CUES[c]} ${(100 * v / Math.max(1, ovalN)).toFixed(1)}` : '')).filter(Boolean).join(', ')}  parse ${Math.round(t1 - t0)} ms mask ${Math.round(t2 - t1)} ms`);
  if (opts.out) {
    mkdirSync(opts.out, { recursive: true });
    const rgb = Buffer.alloc(win.w * win.h * 3);
    for (let y = 0; y < win.h; y++) for (let x = 0; x < win.w; x++) {
      const gi = (win.y0 + y) * W + win.x0 + x, i = y * win.w + x;
      for (let c = 0; c < 3; c++) rgb[3 * i + c] = image.data[gi * image.channels + c];
      if (plane[i] > 0.5) { rgb[3 * i] = Math.min(255, rgb[3 * i] + 120); }
      if (outline && outline[gi] >= 128) rgb[3 * i + 1] = Math.min(255, rgb[3 * i + 1] + 80);
    }
    await sharp(rgb, { raw: { width: win.w, height: win.h, channels: 3 } }).resize({ width: 300 }).png().toFile(path.join(opts.out, `${set}-${name}.png`));
  }
}
for (const [k, v] of Object.entries(sum)) console.log(`${k}: ${k.startsWith('occluded') ? 'recall' : 'false alarm'} mean ${(100 * v.reduce((a, b) => a + b, 0) / v.length).toFixed(1)} %, ${k.startsWith('occluded') ? 'least' : 'most'} ${(100 * (k.startsWith('occluded') ? Math.min(...v) : Math.max(...v))).toFixed(1)} %`);
