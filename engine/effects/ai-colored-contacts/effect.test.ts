/** Coloured contacts over real HTTP on the public-domain portraits in engine/test/fixtures. */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, form, get, pollTask, post, solidPng, startTestEngine, waitReady, type TestEngine } from '../../test/helpers.ts';
import type { RasterImage } from '../../image/raster.ts';
import { detectFaces } from '../../vision/faces/detect.ts';
import { ModelRegistry } from '../../vision/models/registry.ts';
import type { HumanLike } from '../../vision/models/human.ts';
import { readLens, type Lens } from './lens.ts';
import { measureContacts } from './measure.ts';

const CONTACTS = '/api/portrait/editing/ai-colored-contacts';
let e: TestEngine;
let photo: Buffer;
let before: RasterImage;
let human: HumanLike;

beforeAll(async () => {
  e = await startTestEngine();
  await waitReady(e);
  // Large enough for the irises to be some 30 px across, and a PNG so the check sees the edit, not JPEG noise.
  photo = await sharp(fixture('obama_official_portrait.jpg')).resize({ width: 1400 }).png().toBuffer();
  const { data, info } = await sharp(photo).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  before = { data, width: info.width, height: info.height, channels: 3 };
  human = await new ModelRegistry({ threads: 1 }).get<HumanLike>('human');
});
afterAll(async () => { await e.close(); });

async function run(fields: Record<string, string | Buffer>) {
  const submitted = await post(e, CONTACTS, form({ image: photo, ...fields }));
  expect(submitted.status).toBe(200);
  return pollTask(e, submitted.body.task_id, 120_000);
}

async function resultPixels(done: Awaited<ReturnType<typeof run>>) {
  expect(done.body.task_status).toBe(2);
  expect(done.body.error_detail.code).toBe('');
  expect(done.body.data.result_urls).toHaveLength(1);
  const img = await get(e, new URL(done.body.data.result_urls[0]).pathname, {});
  const { data, info } = await sharp(img.body as Buffer).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  expect([info.width, info.height]).toEqual([before.width, before.height]);
  return data;
}

describe('ai-colored-contacts', () => {
  it('tints the irises toward the named colour and nothing else', async () => {
    const after = await resultPixels(await run({ name: 'Ocean Blue' }));
    const faces = await detectFaces(human, before, { maxFaces: 5 });
    const m = measureContacts(before, after, faces, (readLens('Ocean Blue') as Lens).hex);
    expect(m.coverage).toBeGreaterThanOrEqual(0.08);
    expect(m.deltaAfter).toBeLessThan(m.deltaBefore - 5);
    expect(m.spill).toBeLessThanOrEqual(0.002);
  });

  it('applies a natural light brown when neither name nor desc is given', async () => {
    const after = await resultPixels(await run({}));
    const faces = await detectFaces(human, before, { maxFaces: 5 });
    const m = measureContacts(before, after, faces, (readLens() as Lens).hex);
    expect(m.coverage).toBeGreaterThan(0);
    expect(m.deltaAfter).toBeLessThan(m.deltaBefore);
    expect(m.spill).toBeLessThanOrEqual(0.002);
  });

  it('fails the task with what was wrong and what is allowed when the text names no colour', async () => {
    const done = await run({ desc: 'make it pretty' });
    expect(done.body.task_status).toBe(2);
    expect(done.body.error_detail.code).toBe('ERROR_INVALID_PARAMETER');
    expect(done.body.error_detail.message).toMatch(/no lens colour found in "make it pretty".*e\.g\./);
  });

  it('answers ERROR_NO_FACE_IN_FILE for a photo without a face', async () => {
    const submitted = await post(e, CONTACTS, form({ image: await solidPng(256, 256), name: 'green' }));
    const done = await pollTask(e, submitted.body.task_id, 120_000);
    expect(done.body.task_status).toBe(2);
    expect(done.body.error_detail.code).toBe('ERROR_NO_FACE_IN_FILE');
  });

  it('refuses a name longer than the contract allows at submission', async () => {
    const r = await post(e, CONTACTS, form({ image: photo, name: 'x'.repeat(201) }));
    expect(r.status).toBe(400);
    expect(r.body.error_detail.code).toBe('ERROR_INVALID_PARAMETER');
  });
});
