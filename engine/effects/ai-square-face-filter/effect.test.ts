/** Square-face avatar over real HTTP on the public-domain portraits in engine/test/fixtures. */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, form, get, pollTask, post, solidPng, startTestEngine, waitReady, type TestEngine } from '../../test/helpers.ts';
import { detectFaces } from '../../vision/faces/detect.ts';
import type { HumanLike } from '../../vision/models/human.ts';
import { ModelRegistry } from '../../vision/models/registry.ts';

const SQUARE_FACE = '/api/portrait/effects/ai-square-face-filter';
let e: TestEngine;
beforeAll(async () => { e = await startTestEngine(); await waitReady(e); });
afterAll(async () => { await e.close(); });

describe('ai-square-face-filter', () => {
  it('answers a rounded-square avatar in which the face is still found', async () => {
    const submitted = await post(e, SQUARE_FACE, form({ image: fixture('obama_official_portrait.jpg') }));
    expect(submitted.status).toBe(200);
    const done = await pollTask(e, submitted.body.task_id, 120_000);
    expect(done.body.task_status).toBe(2);
    expect(done.body.error_detail.code).toBe('');
    const img = await get(e, new URL(done.body.data.result_urls[0]).pathname, {});
    const { data, info } = await sharp(img.body as Buffer).raw().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(4);
    expect(info.width).toBe(info.height);
    const alpha = (x: number, y: number) => data[(y * info.width + x) * 4 + 3];
    expect(alpha(0, 0)).toBe(0); // the rounded corner
    expect(alpha(info.width - 1, info.height - 1)).toBe(0);
    expect(alpha(info.width >> 1, 0)).toBe(255); // the straight edge
    expect(alpha(info.width >> 1, info.height >> 1)).toBe(255);
    const flat = await sharp(img.body as Buffer).flatten({ background: '#ffffff' }).raw().toBuffer();
    const human = await new ModelRegistry({ threads: 1 }).get<HumanLike>('human');
    const faces = await detectFaces(human, { data: flat, width: info.width, height: info.height, channels: 3 });
    expect(faces.length).toBe(1);
    // The face fills the avatar's middle.
    expect(faces[0].box.w).toBeGreaterThan(info.width * 0.25);
  });

  it('enlarges a small face to the full avatar, still found as a face', async () => {
    const small = await sharp(fixture('obama_official_portrait.jpg')).resize({ width: 240 }).jpeg().toBuffer();
    const submitted = await post(e, SQUARE_FACE, form({ image: small }));
    const done = await pollTask(e, submitted.body.task_id, 120_000);
    expect(done.body.error_detail.code).toBe('');
    const img = await get(e, new URL(done.body.data.result_urls[0]).pathname, {});
    const { data, info } = await sharp(img.body as Buffer).flatten({ background: '#ffffff' }).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([768, 768]);
    const human = await new ModelRegistry({ threads: 1 }).get<HumanLike>('human');
    const faces = await detectFaces(human, { data, width: info.width, height: info.height, channels: 3 });
    expect(faces.length).toBe(1);
  });

  it('answers ERROR_NO_FACE_IN_FILE for a photo without a face', async () => {
    const submitted = await post(e, SQUARE_FACE, form({ image: await solidPng(256, 256) }));
    const done = await pollTask(e, submitted.body.task_id, 120_000);
    expect(done.body.task_status).toBe(2);
    expect(done.body.error_detail.code).toBe('ERROR_NO_FACE_IN_FILE');
  });
});
