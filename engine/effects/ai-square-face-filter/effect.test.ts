/** Square-face avatar over real HTTP on the public-domain portraits in engine/test/fixtures. */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, form, get, pollTask, post, solidPng, startTestEngine, waitReady, type TestEngine } from '../../test/helpers.ts';
import { detectFaces } from '../../vision/faces/detect.ts';
import { FACE_OVAL, LEFT_BROW, LEFT_EYE, LIPS_LOWER_OUTER, LIPS_UPPER_OUTER, RIGHT_BROW, RIGHT_EYE } from '../../vision/faces/landmarks.ts';
import { strokePath } from './features.ts';
import { fillPolygon } from '../../image/polygon.ts';
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

  it('enlarges a small face to the full avatar, found as a face, its features drawn from its mesh as clean lines', async () => {
    // Obama's face about 80 px high, enlarged about 4.4 times into the avatar.
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
    const [face] = faces;
    const at = (i: number) => [face.mesh![i][0], face.mesh![i][1]] as const;
    // Ink inside the face (dark pixels in the oval shrunk to 80 %) lies on the features the mesh knows:
    // in or within 5 px of an eye, a brow, the nose's base or the lips. Blotches lie anywhere.
    const win = { x0: 0, y0: 0, w: info.width, h: info.height };
    const features = new Float32Array(info.width * info.height);
    for (const f of [RIGHT_EYE, LEFT_EYE, RIGHT_BROW, LEFT_BROW, [...LIPS_UPPER_OUTER, ...[...LIPS_LOWER_OUTER].reverse()], [98, 97, 2, 326, 327]]) {
      strokePath(features, info.width, info.height, f.map(at), 10, true);
      fillPolygon(f.map(at), win, features);
    }
    const oval = FACE_OVAL.map(at), cx = oval.reduce((t, p) => t + p[0], 0) / oval.length, cy = oval.reduce((t, p) => t + p[1], 0) / oval.length;
    const inner = fillPolygon(oval.map(([x, y]) => [cx + 0.8 * (x - cx), cy + 0.8 * (y - cy)] as const), win);
    let dark = 0, onFeatures = 0;
    for (let i = 0; i < inner.length; i++) {
      if (inner[i] < 0.5 || 0.299 * data[i * 3] + 0.587 * data[i * 3 + 1] + 0.114 * data[i * 3 + 2] > 70) continue;
      dark++;
      if (features[i] > 0) onFeatures++;
    }
    expect(dark).toBeGreaterThan(500); // the features are drawn
    expect(onFeatures / dark).toBeGreaterThan(0.9);
  });

  it('answers ERROR_NO_FACE_IN_FILE for a photo without a face', async () => {
    const submitted = await post(e, SQUARE_FACE, form({ image: await solidPng(256, 256) }));
    const done = await pollTask(e, submitted.body.task_id, 120_000);
    expect(done.body.task_status).toBe(2);
    expect(done.body.error_detail.code).toBe('ERROR_NO_FACE_IN_FILE');
  });
});
