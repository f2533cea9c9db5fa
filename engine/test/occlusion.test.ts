/**
 * Face effects over real HTTP on photos with something in front of the face (engine/test/fixtures/occluded/,
 * made by scripts/quality/occlusion-photos.ts; the mask beside each outlines the occluder): the occluder's
 * pixels stay as they were (at most 1 % of them changed by more than 12 levels), and the effect still changes
 * the photo away from it: a microphone over a bearded man's or a woman's mouth, a phone at a bearded man's
 * cheek, a hand over Obama's mouth, at a stubbled chin (docs/experiments/occlusion.md).
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointList } from '../../contract/index.ts';
import { fixture, form, get, pollTask, post, startTestEngine, waitReady, type TestEngine } from './helpers.ts';

const MIC = 'occluded/mic_mouth_beard_short_black.jpg', MIC_WOMAN = 'occluded/mic_mouth_darkskin_woman.jpg';
/** A real hand pasted over Obama's mouth and chin. */
const HAND = 'occluded/hand_mouth_obama.jpg';
/** The same hand at a stubbled man's chin (the parser calls it skin; its colour is close to the face's). */
const HAND_STUBBLE = 'occluded/hand_mouth_stubble_black.jpg';
/** A phone held at the cheek of a man with glasses and a full short beard (the phone's lower half over the beard). */
const PHONE = 'occluded/phone_cheek_beard_full_glasses.jpg';
const LIP_COLOUR = JSON.stringify([{ rgba: { r: 200, g: 30, b: 60, a: 70 } }]);
/**
 * The effects that keep occluders and the photos each is held to, with the fields they need. Beard removal
 * keeps the occlusion mask's pixels and the held things' (hands, vision/regions/hands.ts; phones and
 * microphones, vision/regions/objects.ts), beard styling and smart skin the held things' only; lips and gloss
 * take grey things off the lips (vision/regions/lips.ts). Face beauty and contacts
 * edit nothing a hand at the mouth covers (docs/experiments/occlusion.md). That the lips' cut leaves unoccluded lips as
 * they were is held in vision/regions/lips-occluders.test.ts.
 */
const EFFECTS: [string, Record<string, string>, string[]][] = [
  ['ai-beard-removal', {}, [MIC, HAND_STUBBLE, PHONE, MIC_WOMAN]],
  ['ai-beard-styling', { beard: 'FullBeardClassic' }, [HAND, HAND_STUBBLE, MIC, PHONE]],
  ['smart-skin-advanced', { smart_skin: '1' }, [HAND, HAND_STUBBLE, MIC_WOMAN, PHONE]],
  ['lips-color-changer', { lip_color_infos: LIP_COLOUR }, [MIC, MIC_WOMAN, HAND]],
  ['ai-red-lip-gloss', {}, [MIC, MIC_WOMAN, HAND]],
  // Edit nothing a hand at the mouth covers: the skin retouch leaves what it does not call skin, contacts
  // colour the irises only.
  ['face-beauty', {}, [HAND, MIC]],
  ['ai-colored-contacts', { name: 'Ocean Blue' }, [HAND]],
];
const CHANGED = 12;

let e: TestEngine;
interface Photo { name: string; before: Buffer; occluder: Uint8Array; width: number }
const photos: Record<string, Photo> = {};

beforeAll(async () => {
  e = await startTestEngine();
  await waitReady(e);
  for (const name of [MIC, MIC_WOMAN, HAND, HAND_STUBBLE, PHONE]) {
    const { data, info } = await sharp(fixture(name)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    photos[name] = { name, before: data, width: info.width, occluder: await sharp(fixture(name.replace(/\.jpg$/, '.mask.png'))).extractChannel(0).raw().toBuffer() };
  }
}, 180_000);
afterAll(async () => { await e.close(); });

/** Runs the effect (sync or as a task) and decodes its one result image. */
async function run(slug: string, fields: Record<string, string>, photo: string): Promise<Buffer> {
  const endpoint = endpointList.find((x) => x.slug === slug)!;
  const r = await post(e, endpoint.path, form({ image: fixture(photo), ...fields }));
  expect(r.status, JSON.stringify(r.body.error_detail)).toBe(200);
  // Lip colour answers its image in the body, as base64.
  if (typeof r.body.result_image === 'string') return sharp(Buffer.from(r.body.result_image, 'base64')).removeAlpha().raw().toBuffer();
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

/** The occluder's share of pixels changed by more than CHANGED, and how many pixels changed away from it (its outline grown by 12 px). */
function changes(p: Photo, after: Buffer) {
  const { before, occluder: hand, width } = p;
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

describe('something in front of the face', () => {
  for (const [slug, fields, names] of EFFECTS) {
    for (const name of names) {
      it(`${slug} leaves ${name} as it was and still edits the photo`, async () => {
        const p = photos[name];
        const after = await run(slug, fields, name);
        expect(after.length).toBe(p.before.length);
        const c = changes(p, after);
        expect(c.hand).toBeLessThanOrEqual(0.01);
        expect(c.elsewhere).toBeGreaterThan(100);
      }, 300_000);
    }
  }
});
