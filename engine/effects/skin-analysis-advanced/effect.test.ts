/** Skin analysis over real HTTP, on the public-domain portraits in engine/test/fixtures. */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skinMaps } from '../../../contract/endpoints/skin-analysis-advanced.ts';
import { fixture, form, post, startTestEngine, waitReady, type TestEngine } from '../../test/helpers.ts';
import { MAX_CODE, SCORED_MEMBERS } from './answer.ts';
import { SKIN_AGE_RANGE } from './tuning.ts';

const SKIN = '/api/portrait/analysis/skin-analysis-advanced';
const KINDS = ['acne', 'closed_comedones', 'mole', 'skin_spot'];
let e: TestEngine;

beforeAll(async () => { e = await startTestEngine(); await waitReady(e); });
afterAll(async () => { await e.close(); });

const analyse = (image: Buffer, fields: Record<string, string> = {}) => post(e, SKIN, form({ image, ...fields }));

/** Every member of the answer (docs/interface.md#skin-analysis) with a code it allows and a confidence in [0, 1]. */
function expectWellFormed(result: any, withConfidence: boolean) {
  for (const m of SCORED_MEMBERS) {
    expect(Object.keys(result[m]).sort(), m).toEqual(['confidence', 'value']);
    expect(Number.isInteger(result[m].value), m).toBe(true);
    expect(result[m].value, m).toBeGreaterThanOrEqual(0);
    expect(result[m].value, m).toBeLessThanOrEqual(MAX_CODE[m] ?? 1);
    expect(result[m].confidence, m).toBeGreaterThanOrEqual(0);
    expect(result[m].confidence, m).toBeLessThanOrEqual(1);
  }
  expect(result.skin_age.value).toBeGreaterThanOrEqual(SKIN_AGE_RANGE[0]);
  expect(result.skin_age.value).toBeLessThanOrEqual(SKIN_AGE_RANGE[1]);
  expect(result.skin_type.skin_type).toBeGreaterThanOrEqual(0);
  expect(result.skin_type.skin_type).toBeLessThanOrEqual(3);
  expect(Object.keys(result.skin_type.details).sort()).toEqual(['0', '1', '2', '3']);
  expect(result.skin_type.details[String(result.skin_type.skin_type)].value).toBe(1);
  for (const kind of KINDS) {
    expect(Array.isArray(result[kind].rectangle), kind).toBe(true);
    for (const r of result[kind].rectangle) {
      expect(Object.keys(r).sort()).toEqual(['height', 'left', 'top', 'width']);
      for (const v of Object.values(r)) expect(Number.isInteger(v)).toBe(true);
    }
    if (withConfidence) expect(result[kind].confidence, kind).toHaveLength(result[kind].rectangle.length);
    else expect(result[kind].confidence, kind).toBeUndefined();
  }
}

describe('skin-analysis-advanced', () => {
  it('measures every member of a frontal portrait, its face rectangle and no pose warning', async () => {
    const r = await analyse(fixture('obama_official_portrait.jpg'));
    expect(r.status, JSON.stringify(r.body.error_detail)).toBe(200);
    expectWellFormed(r.body.result, false);
    const { top, left, width, height } = r.body.face_rectangle;
    expect(left).toBeGreaterThan(300); expect(left + width).toBeLessThan(680);
    expect(top).toBeGreaterThan(60); expect(top + height).toBeLessThan(480);
    expect(r.body.warning).toEqual([]);
    // A man in his late forties with dark skin, smiling: dark-to-natural colour, nasolabial folds.
    expect(r.body.result.skin_color.value).toBeGreaterThanOrEqual(2);
    expect(r.body.result.nasolabial_fold.value).toBe(1);
    expect(r.body.result.skin_age.value).toBeGreaterThan(25);
    expect(r.body.face_maps ?? {}).toEqual({});
  });

  it('returns each map asked for at the input size, and rectangle confidences', async () => {
    const r = await analyse(fixture('astronaut_eileen_collins.png'), { return_maps: skinMaps.join(','), return_rect_confidence: '1' });
    expect(r.status, JSON.stringify(r.body.error_detail)).toBe(200);
    expectWellFormed(r.body.result, true);
    expect(Object.keys(r.body.face_maps).sort()).toEqual([...skinMaps].sort());
    for (const name of skinMaps) {
      const m = await sharp(Buffer.from(r.body.face_maps[name], 'base64')).metadata();
      expect([m.width, m.height], name).toEqual([512, 512]);
    }
    const some = await analyse(fixture('astronaut_eileen_collins.png'), { return_maps: 'red_area' });
    expect(Object.keys(some.body.face_maps)).toEqual(['red_area']);
  });

  it('measures the largest face of a group photo and warns that there are several', async () => {
    // Public-domain portraits composed into a group of four: Obama's face is the largest.
    const obama = await sharp(fixture('obama_official_portrait.jpg')).resize({ height: 700 }).toBuffer();
    const small = await Promise.all(['astronaut_eileen_collins.png', 'senior_balding_thinning_white_hair_01.jpg', 'astronaut_eileen_collins.png']
      .map((f) => sharp(fixture(f)).resize({ height: 300 }).removeAlpha().toBuffer()));
    const om = await sharp(obama).metadata();
    const group = await sharp({ create: { width: om.width! + 620, height: 700, channels: 3, background: '#707070' } })
      .composite([{ input: obama, left: 0, top: 0 }, { input: small[0], left: om.width! + 10, top: 20 }, { input: small[1], left: om.width! + 320, top: 20 }, { input: small[2], left: om.width! + 10, top: 380 }])
      .jpeg({ quality: 92 }).toBuffer();
    const r = await analyse(group);
    expect(r.status, JSON.stringify(r.body.error_detail)).toBe(200);
    expect(r.body.warning).toEqual(['multiple_faces']);
    const { left, width } = r.body.face_rectangle;
    expect(left + width).toBeLessThan(om.width!);
    expectWellFormed(r.body.result, false);
    const alone = await analyse(fixture('biden_obama_laughing_heads.jpg'));
    expect(alone.status, JSON.stringify(alone.body.error_detail)).toBe(200);
    expect(alone.body.warning).toContain('multiple_faces');
  });

  it('anchors skin age on the apparent age: a smooth woman of about 40 and a lined man of about 80', async () => {
    const young = await analyse(fixture('astronaut_eileen_collins.png'));
    expect(young.status, JSON.stringify(young.body.error_detail)).toBe(200);
    expect(young.body.result.skin_age.value).toBeGreaterThanOrEqual(25);
    expect(young.body.result.skin_age.value).toBeLessThanOrEqual(55);
    const old = await analyse(fixture('senior_balding_thinning_white_hair_01.jpg'));
    expect(old.status, JSON.stringify(old.body.error_detail)).toBe(200);
    expect(old.body.result.skin_age.value).toBeGreaterThanOrEqual(60);
  });

  it('warns of a head turned past 45 degrees', async () => {
    const turned = await sharp(fixture('obama_official_portrait.jpg')).rotate(50, { background: '#808080' }).jpeg().toBuffer();
    const r = await analyse(turned);
    expect(r.status, JSON.stringify(r.body.error_detail)).toBe(200);
    expect(r.body.warning).toEqual(['imporper_headpose']);
  });

  it('with face_quality_control=1 refuses a face too small or too blurred, saying the limit', async () => {
    const ok = await analyse(fixture('obama_official_portrait.jpg'), { face_quality_control: '1' });
    expect(ok.status, JSON.stringify(ok.body.error_detail)).toBe(200);
    const small = await sharp(fixture('obama_official_portrait.jpg')).resize({ width: 400 }).toBuffer();
    const tooSmall = await analyse(small, { face_quality_control: '1' });
    expect(tooSmall.status).toBe(422);
    expect(tooSmall.body.error_detail.code).toBe('ERROR_FACE_SIZE_RATIO_NOT_MET');
    expect(tooSmall.body.error_detail.message).toMatch(/at least 1\.2 px per mm/);
    expect((await analyse(small)).status).toBe(200); // measured anyway without the check
    const blurred = await sharp(fixture('obama_official_portrait.jpg')).blur(3).toBuffer();
    const tooBlurred = await analyse(blurred, { face_quality_control: '1' });
    expect(tooBlurred.status).toBe(422);
    expect(tooBlurred.body.error_detail.code).toBe('ERROR_BLURRY_FACE');
    expect(tooBlurred.body.error_detail.message).toMatch(/sharpness \d/);
  });

  it('422 without a face; 400 for values outside the contract', async () => {
    const cup = await analyse(fixture('product_coffee_cup.png'));
    expect(cup.status).toBe(422);
    expect(cup.body.error_detail.code).toBe('ERROR_NO_FACE_IN_FILE');
    const bad: Record<string, string>[] = [{ return_maps: 'red_area,blue_area' }, { face_quality_control: '2' }, { return_rect_confidence: 'yes' }];
    for (const fields of bad) {
      const r = await analyse(fixture('obama_official_portrait.jpg'), fields);
      expect(r.status, JSON.stringify(fields)).toBe(400);
      expect(r.body.error_detail.code).toBe('ERROR_INVALID_PARAMETER');
    }
  });
});
