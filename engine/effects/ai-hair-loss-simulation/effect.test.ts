/** Hair loss simulation over real HTTP on the public-domain portraits in engine/test/fixtures. */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changedPixels } from '../../image/change.ts';
import { fixture, form, get, pollTask, post, solidPng, startTestEngine, waitReady, type TestEngine } from '../../test/helpers.ts';
import { detectFaces } from '../../vision/faces/detect.ts';
import type { HumanLike } from '../../vision/models/human.ts';
import { ModelRegistry } from '../../vision/models/registry.ts';
import { toLab } from '../../image/colour.ts';
import { headFrame, toHead } from './hairline.ts';
import { scalpMeasures } from './measure.ts';

const HAIR_LOSS = '/api/portrait/editing/ai-hair-loss-simulation';
let e: TestEngine;
beforeAll(async () => { e = await startTestEngine(); await waitReady(e); });
afterAll(async () => { await e.close(); });

const raw = async (png: Buffer) => sharp(png).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });

async function simulate(image: Buffer, level: string) {
  const submitted = await post(e, HAIR_LOSS, form({ image, level }));
  expect(submitted.status).toBe(200);
  expect(typeof submitted.body.task_id).toBe('string');
  const done = await pollTask(e, submitted.body.task_id, 120_000);
  expect(done.body.task_status).toBe(2);
  return done;
}

/** A fixture, decoded as the engine reads it, and Human with the faces it finds there. */
async function photoFaces(name: string) {
  const photo = fixture(name);
  const before = await raw(photo);
  const img = { data: before.data, width: before.info.width, height: before.info.height, channels: 3 as const };
  const human = await new ModelRegistry({ threads: 1 }).get<HumanLike>('human');
  return { photo, before, img, human, faces: await detectFaces(human, img) };
}

describe('ai-hair-loss-simulation', () => {
  it('bares the scalp above the brows, more at man_7 than man_2, and leaves the face below the brows alone', async () => {
    const { photo, before, human, faces: [face] } = await photoFaces('obama_official_portrait.jpg');
    const frame = headFrame(face.mesh!);
    const counts: number[] = [];
    for (const level of ['man_2', 'man_7']) {
      const done = await simulate(photo, level);
      expect(done.body.error_detail.code).toBe('');
      const img = await get(e, new URL(done.body.data.result_urls[0]).pathname, {});
      const after = await raw(img.body as Buffer);
      expect([after.info.width, after.info.height]).toEqual([before.info.width, before.info.height]);
      const changed = changedPixels(before.data, after.data, 3);
      let above = 0, below = 0;
      for (let y = 0; y < before.info.height; y++) {
        for (let x = 0; x < before.info.width; x++) {
          if (!changed[y * before.info.width + x]) continue;
          if (toHead(frame, x + 0.5, y + 0.5)[1] >= 0) above++; else below++;
        }
      }
      // JPEG blocks that straddle the edit's lower edge may move a handful of pixels just below it.
      expect(below).toBeLessThan(50);
      counts.push(above);
    }
    expect(counts[0]).toBeGreaterThan(1000);
    // man_2 already takes the hair's soft outline with the temples, man_7 keeps a tapered horseshoe: 1.9x measured.
    expect(counts[1]).toBeGreaterThan(counts[0] * 1.6);
    // man_7's bald head is still the same person's face.
    const done = await simulate(photo, 'man_7');
    const after = await raw((await get(e, new URL(done.body.data.result_urls[0]).pathname, {})).body as Buffer);
    const found = await detectFaces(human, { data: after.data, width: after.info.width, height: after.info.height, channels: 3 });
    expect(found.length).toBe(1);
  });

  it('fills the crowns of two turned, laughing heads with their forehead skin, not the dark backdrop (man_7)', async () => {
    // The frame's frontal skull (centred between the face's sides, 1.6 forehead heights tall) left a turned
    // head's crown outside the head: its hair was replaced by the backdrop, a flat dark-brown patch.
    const { photo, before, img, faces: found } = await photoFaces('biden_obama_laughing_heads.jpg');
    const faces = found.filter((f) => f.mesh);
    expect(faces.length).toBe(2);
    const done = await simulate(photo, 'man_7');
    expect(done.body.error_detail.code).toBe('');
    const after = await raw((await get(e, new URL(done.body.data.result_urls[0]).pathname, {})).body as Buffer);
    const changed = changedPixels(before.data, after.data, 3);
    const win = { x0: 0, y0: 0, w: img.width, h: img.height };
    const labBefore = toLab(img, win), labAfter = toLab({ ...img, data: after.data }, win);
    const mean = (lab: typeof labBefore, pick: (x: number, y: number, i: number) => boolean) => {
      const m = [0, 0, 0];
      let k = 0;
      for (let y = 0, i = 0; y < img.height; y++) for (let x = 0; x < img.width; x++, i++) {
        if (!pick(x, y, i)) continue;
        m[0] += lab.L[i]; m[1] += lab.a[i]; m[2] += lab.b[i]; k++;
      }
      return { lab: m.map((v) => v / Math.max(1, k)), count: k };
    };
    const dist = (p: number[], q: number[]) => Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
    // The backdrop: the dark wall above and between the heads, left of the green curtain.
    const backdrop = mean(labBefore, (x, y) => y < 60 && x < 700);
    for (const face of faces) {
      const f = headFrame(face.mesh!);
      // The forehead: behind its middle, toward the near side (past its middle a turned face soon meets the wall).
      const forehead = mean(labBefore, (x, y) => { const [u, v] = toHead(f, x + 0.5, y + 0.5); return v >= 0.2 && v <= 0.6 && u >= f.mid - 0.6 && u <= f.mid - 0.15; });
      // The crown: what changed well above the old hairline, over this head (not the other one beside it).
      const crown = mean(labAfter, (x, y, i) => { const [u, v] = toHead(f, x + 0.5, y + 0.5); return changed[i] === 1 && v >= 1.6 && u >= -3 && u <= f.mid + 1; });
      expect(crown.count).toBeGreaterThan(2000);
      expect(dist(crown.lab, forehead.lab)).toBeLessThan(0.5 * dist(crown.lab, backdrop.lab));
      expect(dist(crown.lab, forehead.lab)).toBeLessThan(20);
    }
  });

  it('bares a scalp with the forehead\'s own grain at man_7, and shows every woman level more than the last', async () => {
    // Issue 35: the dome must carry the forehead's fine band (within half and twice its RMS), and each
    // woman level must change more, and shift the top of the head's lightness more, than the one before.
    const { photo, img, faces: [face] } = await photoFaces('obama_official_portrait.jpg');
    const frame = headFrame(face.mesh!);
    const result = async (level: string) => {
      const done = await simulate(photo, level);
      expect(done.body.error_detail.code).toBe('');
      const after = await raw((await get(e, new URL(done.body.data.result_urls[0]).pathname, {})).body as Buffer);
      return scalpMeasures(img, { ...img, data: after.data }, frame);
    };
    const bald = await result('man_7');
    expect(bald.scalpPixels).toBeGreaterThan(2000);
    expect(bald.foreheadPixels).toBeGreaterThan(2000);
    expect(bald.ratio).toBeGreaterThan(0.5);
    expect(bald.ratio).toBeLessThan(2);
    const woman: { changed: number; topShift: number }[] = [];
    for (let k = 1; k <= 7; k++) woman.push(await result(`woman_${k}`));
    for (let k = 1; k < 7; k++) {
      expect(woman[k].changed).toBeGreaterThan(woman[k - 1].changed);
      expect(woman[k].topShift).toBeGreaterThan(woman[k - 1].topShift);
    }
    // Stage 1 shows: more than a parting a hair wide.
    expect(woman[0].changed).toBeGreaterThan(400);
  }, 900_000);

  it('bares a dome whose fine texture carries the forehead\'s energy, not its lines, on a wrinkled senior (man_7)', async () => {
    // Issue 35: a hair-loss dome with texture, its high-frequency energy close to the forehead's. The
    // forehead's frown lines are kept off the dome by their orientation (grain.ts isotropic) and the pores
    // and grain left are brought back to the forehead's spread: 0.93 of it measured, where the old tile at
    // 0.7 gain read 0.67.
    const { photo, img, faces: [face] } = await photoFaces('senior_balding_thinning_white_hair_01.jpg');
    const done = await simulate(photo, 'man_7');
    expect(done.body.error_detail.code).toBe('');
    const after = await raw((await get(e, new URL(done.body.data.result_urls[0]).pathname, {})).body as Buffer);
    const m = scalpMeasures(img, { ...img, data: after.data }, headFrame(face.mesh!));
    expect(m.scalpPixels).toBeGreaterThan(2000);
    expect(m.foreheadPixels).toBeGreaterThan(2000);
    expect(m.ratio).toBeGreaterThan(0.8);
    expect(m.ratio).toBeLessThan(1.25);
  }, 300_000);

  it('gives the same result for the same photo and level', async () => {
    const photo = fixture('astronaut_eileen_collins.png');
    const urls: Buffer[] = [];
    for (let i = 0; i < 2; i++) {
      const done = await simulate(photo, 'woman_5');
      expect(done.body.error_detail.code).toBe('');
      urls.push((await get(e, new URL(done.body.data.result_urls[0]).pathname, {})).body as Buffer);
    }
    const [a, b] = await Promise.all(urls.map(raw));
    expect(Buffer.compare(a.data, b.data)).toBe(0);
    const before = await raw(photo);
    let n = 0;
    const changed = changedPixels(before.data, a.data, 3);
    for (const c of changed) n += c;
    expect(n).toBeGreaterThan(200);
  });

  it.each([['man_8'], ['woman_0'], ['bald'], ['']])('answers 400 ERROR_INVALID_PARAMETER naming level for %j', async (level) => {
    const r = await post(e, HAIR_LOSS, form({ image: fixture('obama_official_portrait.jpg'), level }));
    expect(r.status).toBe(400);
    expect(r.body.error_detail.code).toMatch(/ERROR_INVALID_PARAMETER|MISSING_PARAMETERS/);
    expect(r.body.error_detail.message).toContain('level');
  });

  it('answers 400 without a level', async () => {
    const r = await post(e, HAIR_LOSS, form({ image: fixture('obama_official_portrait.jpg') }));
    expect(r.status).toBe(400);
    expect(r.body.error_detail.message).toContain('level');
  });

  it('answers ERROR_NO_FACE_IN_FILE for a photo without a face', async () => {
    for (const image of [await solidPng(256, 256), fixture('product_coffee_cup.png')]) {
      const done = await simulate(image, 'man_3');
      expect(done.body.error_detail.code).toBe('ERROR_NO_FACE_IN_FILE');
    }
  });
});
