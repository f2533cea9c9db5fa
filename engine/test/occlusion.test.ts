/**
 * Every face effect over real HTTP on a photo with a hand over the face (engine/test/fixtures/occluded/, made
 * by scripts/quality/occlusion-photos.ts: a real hand, CC0, pasted over a public-domain portrait; the mask
 * beside it outlines the hand): the hand's pixels stay as they were (at most 1 % of them changed by more than
 * 12 levels), and the effect still changes the face around it. The square-face avatar draws a new picture, not
 * an edit of this one, so it has no pixels to compare.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointList } from '../../contract/index.ts';
import { fixture, form, get, pollTask, post, startTestEngine, waitReady, type TestEngine } from './helpers.ts';

const PHOTO = 'occluded/hand_mouth_obama.jpg';
/** Each face effect with the fields it needs. */
const EFFECTS: [string, Record<string, string>][] = [
  ['ai-beard-styling', { beard: 'FullBeardClassic' }],
  ['ai-beard-removal', {}],
  ['face-beauty', {}],
  ['smart-skin-advanced', {}],
  ['lips-color-changer', { lip_color_infos: JSON.stringify([{ rgba: { r: 200, g: 30, b: 60, a: 90 } }]) }],
  ['ai-red-lip-gloss', {}],
  ['ai-colored-contacts', { name: 'Ocean Blue', desc: 'vivid blue' }],
  ['ai-hair-loss-simulation', { level: 'man_5' }],
];
const CHANGED = 12;

let e: TestEngine;
let before: Buffer;
let hand: Uint8Array;
let width: number;

beforeAll(async () => {
  e = await startTestEngine();
  await waitReady(e);
  const { data, info } = await sharp(fixture(PHOTO)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  before = data; width = info.width;
  hand = await sharp(fixture(PHOTO.replace(/\.jpg$/, '.mask.png'))).extractChannel(0).raw().toBuffer();
}, 180_000);
afterAll(async () => { await e.close(); });

/** Runs the effect (sync or as a task) and decodes its one result image. */
async function run(slug: string, fields: Record<string, string>): Promise<Buffer> {
  const endpoint = endpointList.find((x) => x.slug === slug)!;
  const r = await post(e, endpoint.path, form({ image: fixture(PHOTO), ...fields }));
  expect(r.status, JSON.stringify(r.body.error_detail)).toBe(200);
  let url: string;
  if (endpoint.mode === 'async') {
    const done = await pollTask(e, r.body.task_id, 240_000);
    expect(done.body.error_detail.code, JSON.stringify(done.body.error_detail)).toBe('');
    url = done.body.data.result_urls[0];
  } else {
    url = Object.values(r.body.data as Record<string, unknown>).find((v): v is string => typeof v === 'string' && v.startsWith('http'))!;
  }
  const img = await get(e, new URL(url).pathname, {});
  expect(img.status).toBe(200);
  return sharp(img.body as Buffer).removeAlpha().raw().toBuffer();
}

/** The hand's share of pixels changed by more than CHANGED, and how many pixels changed away from it (its outline grown by 12 px). */
function changes(after: Buffer) {
  const near = (i: number) => {
    const x = i % width, y = (i - x) / width;
    for (let dy = -12; dy <= 12; dy += 4) for (let dx = -12; dx <= 12; dx += 4) if (hand[(y + dy) * width + x + dx] >= 128) return true;
    return false;
  };
  let onHand = 0, handChanged = 0, elsewhere = 0;
  for (let i = 0; i < hand.length; i++) {
    const d = Math.max(Math.abs(before[3 * i] - after[3 * i]), Math.abs(before[3 * i + 1] - after[3 * i + 1]), Math.abs(before[3 * i + 2] - after[3 * i + 2]));
    if (hand[i] >= 128) { onHand++; if (d > CHANGED) handChanged++; } else if (d > CHANGED && !near(i)) elsewhere++;
  }
  return { hand: handChanged / onHand, elsewhere };
}

describe('a hand over the face', () => {
  for (const [slug, fields] of EFFECTS) {
    it(`${slug} leaves the hand as it was and still edits the face`, async () => {
      const after = await run(slug, fields);
      expect(after.length).toBe(before.length);
      const c = changes(after);
      expect(c.hand).toBeLessThanOrEqual(0.01);
      expect(c.elsewhere).toBeGreaterThan(100);
    }, 300_000);
  }
});
