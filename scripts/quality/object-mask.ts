/**
 * The object mask alone (vision/regions/objects.ts: phones, microphones, cups in front of the lower face),
 * against the outlines of engine/test/fixtures/occluded/ and on unoccluded portraits (../shared/testdata:
 * exemplars and single-face portraits, where any gate that opens is a false alarm). Per photo: the gates that
 * opened (detector class and score, or a grey island over the lips), the outline's share the mask covers
 * (recall, inside the mask's window), and the mask's pixels off the outline as a share of the face width squared.
 * Both sets are split by file in name order (odd places fit, even places check), as quality:occlusion splits.
 *
 *   npx tsx scripts/quality/object-mask.ts [--only substring] [--out DIR]   (DIR: overlays, red = mask, green = outline)
 *   npx tsx scripts/quality/object-mask.ts --sweep   every face of the photos the retouch quality scripts read (the
 *     shared portraits and landmark photos and the exemplars): which gates open. Where none does, the effects
 *     that keep held objects give exactly what they gave without them (an empty mask restores nothing).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { decodeImage, detectFaces, type HumanLike, meshFaceWidth, ModelRegistry, objectPlane, objectsNearFace } from '../../engine/for-scripts.ts';
import { EXEMPLARS, occlusionCases, sharedTestdata } from './occlusion-cases.ts';
import { retouchPhotos } from './retouch-identity.ts';

const { values: opts } = parseArgs({ options: { only: { type: 'string' }, out: { type: 'string' }, sweep: { type: 'boolean' } } });
const models = new ModelRegistry({ threads: 2 });
const human = await models.get<HumanLike>('human');

if (opts.sweep) {
  const photos = [...retouchPhotos(sharedTestdata), ...EXEMPLARS.map((f) => path.relative(sharedTestdata, f))];
  let faces = 0, open = 0;
  for (const rel of photos) {
    const image = await decodeImage(readFileSync(path.join(sharedTestdata, rel)), rel.endsWith('.png') ? 'png' : 'jpeg', 50e6);
    for (const [k, face] of (await detectFaces(human, image)).entries()) {
      if (!face.mesh) continue;
      faces++;
      const { gates } = objectPlane(face, image, await objectsNearFace(human, image, face));
      if (gates.length) { open++; console.log(`${rel} face ${k}: ${gates.map((g) => `${g.label} ${g.score.toFixed(3)}`).join(', ')}`); }
    }
  }
  console.log(`sweep: ${photos.length} photos, ${faces} faces with a mesh, a gate opened on ${open}`);
  process.exit(0);
}
const opened: Record<string, number> = {};
for await (const { set, half, name, image, face, outline } of occlusionCases(human, opts.only)) {
  const t0 = performance.now();
  const found = await objectsNearFace(human, image, face);
  const t1 = performance.now();
  const { plane, win, gates } = objectPlane(face, image, found);
  const t2 = performance.now();
  const fw = meshFaceWidth(face.mesh);
  const W = image.width;
  let occN = 0, hitN = 0, offN = 0;
  for (let y = 0; y < win.h; y++) for (let x = 0; x < win.w; x++) {
    const gi = (win.y0 + y) * W + win.x0 + x, on = plane[y * win.w + x] > 0.5;
    if (outline && outline[gi] >= 128) { occN++; if (on) hitN++; } else if (on) offN++;
  }
  if (gates.length) opened[`${set} ${half}`] = (opened[`${set} ${half}`] ?? 0) + 1;
  console.log(`${set.padEnd(8)} ${half.padEnd(5)} ${name.padEnd(46)} gates ${gates.map((g) => `${g.label} ${g.score.toFixed(g.box ? 2 : 3)}`).join(', ') || 'none'}`
    + `${outline ? `  recall ${(100 * hitN / Math.max(1, occN)).toFixed(1)} %` : ''}  off-outline ${(offN / (fw * fw)).toFixed(3)} fw²  detector ${Math.round(t1 - t0)} ms, mask ${Math.round(t2 - t1)} ms`);
  if (opts.out && plane.length) {
    mkdirSync(opts.out, { recursive: true });
    const rgb = Buffer.alloc(win.w * win.h * 3);
    for (let y = 0; y < win.h; y++) for (let x = 0; x < win.w; x++) {
      const gi = (win.y0 + y) * W + win.x0 + x, i = y * win.w + x;
      for (let c = 0; c < 3; c++) rgb[3 * i + c] = image.data[gi * image.channels + c];
      if (plane[i] > 0.5) rgb[3 * i] = Math.min(255, rgb[3 * i] + 120);
      if (outline && outline[gi] >= 128) rgb[3 * i + 1] = Math.min(255, rgb[3 * i + 1] + 80);
    }
    await sharp(rgb, { raw: { width: win.w, height: win.h, channels: 3 } }).png().toFile(path.join(opts.out, `${set}-${name}.png`));
  }
}
console.log(`gates opened: ${Object.entries(opened).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'} (on unoccluded portraits each one is a false alarm)`);
