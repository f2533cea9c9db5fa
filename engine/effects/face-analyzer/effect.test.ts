/** Face analyzer over real HTTP, on the public-domain portraits in engine/test/fixtures. */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faceAttributeFamilies } from '../../../contract/face-attributes.ts';
import { faceAttributeTypes } from '../../../contract/endpoints/face-analyzer.ts';
import { fixture, form, post, startTestEngine, waitReady, type TestEngine } from '../../test/helpers.ts';

const ANALYZER = '/api/portrait/analysis/face-analyzer';
const ALL = faceAttributeTypes.filter((t) => t !== 'None').join(',');
let e: TestEngine;
let pair: Buffer;

beforeAll(async () => {
  e = await startTestEngine();
  await waitReady(e);
  // Two public-domain portraits side by side: the astronaut's face is the smaller one.
  const obama = await sharp(fixture('obama_official_portrait.jpg')).resize({ height: 800 }).toBuffer();
  const astronaut = await sharp(fixture('astronaut_eileen_collins.png')).resize({ height: 512 }).removeAlpha().toBuffer();
  const om = await sharp(obama).metadata();
  pair = await sharp({ create: { width: om.width! + 512, height: 800, channels: 3, background: '#808080' } })
    .composite([{ input: obama, left: 0, top: 0 }, { input: astronaut, left: om.width!, top: 144 }]).jpeg({ quality: 92 }).toBuffer();
});
afterAll(async () => { await e.close(); });

const analyse = (image: Buffer, fields: Record<string, string> = {}) => post(e, ANALYZER, form({ image, ...fields }));

/** The fixtures' portraits at `height` px, two rows (the second mirrored), on grey: the photo and where each lies. */
async function group(height: number) {
  const names = ['obama_official_portrait.jpg', 'astronaut_eileen_collins.png', 'senior_balding_thinning_white_hair_01.jpg', 'biden_obama_laughing_heads.jpg'];
  const tiles: { input: Buffer; left: number; top: number; width: number; height: number }[] = [];
  for (const row of [0, 1]) {
    let left = 10;
    for (const name of names) {
      const s = sharp(fixture(name)).removeAlpha().resize({ height });
      const { data, info } = await (row ? s.flop() : s).toBuffer({ resolveWithObject: true });
      tiles.push({ input: data, left, top: 10 + row * (height + 10), width: info.width, height: info.height });
      left += info.width;
    }
  }
  const width = Math.max(...tiles.map((t) => t.left + t.width)) + 40;
  const image = await sharp({ create: { width, height: 2 * height + 30, channels: 3, background: '#808080' } })
    .composite(tiles.map(({ input, left, top }) => ({ input, left, top }))).jpeg({ quality: 90 }).toBuffer();
  return { image, tiles };
}

/**
 * Every member of the answer (docs/interface.md#face-analyzer) is there, coded members {type, probability}
 * with a code the contract knows.
 */
function expectWellFormed(attrs: any) {
  for (const family of faceAttributeFamilies) {
    for (const member of family.members) {
      const v = member.path.reduce((o: any, k) => o?.[k], attrs);
      expect(v, member.path.join('.')).toBeDefined();
      if (member.kind === 'coded') {
        expect(Object.keys(v).sort(), member.path.join('.')).toEqual(['probability', 'type']);
        expect(v.type, member.path.join('.')).toBeGreaterThanOrEqual(0);
        expect(v.type, member.path.join('.')).toBeLessThan(member.codes.length);
        expect(v.probability).toBeGreaterThanOrEqual(0);
        expect(v.probability).toBeLessThanOrEqual(1);
      }
    }
  }
}

describe('face-analyzer', () => {
  it('reports one face by default, with every member present and empty (None is the default)', async () => {
    const r = await analyse(fixture('obama_official_portrait.jpg'));
    expect(r.status, JSON.stringify(r.body.error_detail)).toBe(200);
    expect([r.body.image_width, r.body.image_height]).toEqual([910, 1137]);
    expect(r.body.face_detail_infos).toHaveLength(1);
    const [face] = r.body.face_detail_infos;
    const { x, y, width, height } = face.face_rect;
    expect(x).toBeGreaterThan(300); expect(x + width).toBeLessThan(680);
    expect(y).toBeGreaterThan(60); expect(y + height).toBeLessThan(480);
    expectWellFormed(face.face_detail_attributes_info);
    expect(face.face_detail_attributes_info.gender).toEqual({ type: 0, probability: 0 });
    expect(face.face_detail_attributes_info.age).toBe(0);
  });

  it('fills every attribute of a known face with real values', async () => {
    const r = await analyse(fixture('obama_official_portrait.jpg'), { face_attributes_type: ALL });
    expect(r.status, JSON.stringify(r.body.error_detail)).toBe(200);
    const a = r.body.face_detail_attributes_info ?? r.body.face_detail_infos[0].face_detail_attributes_info;
    expectWellFormed(a);
    expect(a.gender.type).toBe(0);
    expect(a.gender.probability).toBeGreaterThan(0.5);
    expect(a.age).toBeGreaterThanOrEqual(30);
    expect(a.age).toBeLessThanOrEqual(65);
    expect(a.emotion.type).toBe(1); // smiling
    expect(a.smile).toBeGreaterThan(50);
    expect(a.eye.glass.type).toBe(0);
    expect(a.eye.eye_open.type).toBe(0); // the member means "eyes closed": 0 = open
    expect(a.hat.style.type).toBe(0);
    expect(a.mask.type).toBe(0);
    expect(a.hair.color.type).toBe(0); // black
    expect(Math.abs(a.head_pose.yaw)).toBeLessThan(20);
    expect(a.beauty).toBeGreaterThan(0);
    for (const coded of [a.emotion, a.gender, a.eye.glass, a.hat.style, a.skin, a.nose, a.shape]) expect(coded.probability).toBeGreaterThan(0);
  });

  it('reads a senior as a senior (a man of about 80; the API caps age at 65)', async () => {
    const r = await analyse(fixture('senior_balding_thinning_white_hair_01.jpg'), { face_attributes_type: 'Age,Gender' });
    expect(r.status, JSON.stringify(r.body.error_detail)).toBe(200);
    const a = r.body.face_detail_infos[0].face_detail_attributes_info;
    expect(a.age).toBeGreaterThanOrEqual(60);
    expect(a.gender.type).toBe(0);
  });

  it('tells sunglasses from clear glasses by whether the eye shows through, on the same face', async () => {
    // The same CC0 portrait with its clear lenses and with them darkened (scripts/quality/sunglasses-photo.ts).
    const clear = await analyse(fixture('senior_white_hair_glasses_02.jpg'), { face_attributes_type: 'Eye,Hair' });
    const dark = await analyse(fixture('senior_white_hair_sunglasses_02.jpg'), { face_attributes_type: 'Eye' });
    expect(clear.status, JSON.stringify(clear.body.error_detail)).toBe(200);
    expect(dark.status, JSON.stringify(dark.body.error_detail)).toBe(200);
    const glassOf = (r: typeof clear) => r.body.face_detail_infos[0].face_detail_attributes_info.eye.glass;
    expect(glassOf(clear).type).toBe(1);
    expect(glassOf(dark).type).toBe(2);
    expect(glassOf(dark).probability).toBeGreaterThan(0.6);
    // And his white hair reads grey/white (3), where Obama's reads black (the test above).
    expect(clear.body.face_detail_infos[0].face_detail_attributes_info.hair.color.type).toBe(3);
  });

  it('reads a moustache over a beard, short hair under a beard (not tied), black and light-brown hair, where the clean-shaven senior has none', async () => {
    // Two CC0 exemplars (fixtures/SOURCES.md): a short full black beard, a short light-brown beard.
    const attrs = async (name: string) => {
      const r = await analyse(fixture(name), { face_attributes_type: 'Moustache,Hair' });
      expect(r.status, JSON.stringify(r.body.error_detail)).toBe(200);
      return r.body.face_detail_infos[0].face_detail_attributes_info;
    };
    const black = await attrs('beard_full_short_black_glasses_03.jpg');
    const brown = await attrs('beard_short_lightbrown_glasses_06.jpg');
    const senior = await attrs('senior_balding_thinning_white_hair_01.jpg');
    expect(black.moustache.type).toBe(1);
    expect(brown.moustache.type).toBe(1);
    expect(senior.moustache.type).toBe(0);
    // The hair mask carries the beard below the chin, which read as tied hair (4) before.
    expect(black.hair.length.type).toBe(1);
    expect(black.hair.color.type).toBe(0);
    // His hair is dark in its shadows: its lit part is what reads brown.
    expect(brown.hair.color.type).toBe(2);
    expect(senior.hair.color.type).toBe(3);
  });

  it('gives no skin colour for a black-and-white photo (type 0, probability 0), and one for the colour original', async () => {
    const grey = await sharp(fixture('obama_official_portrait.jpg')).grayscale().toColourspace('srgb').jpeg().toBuffer();
    const r = await analyse(grey, { face_attributes_type: 'Skin' });
    expect(r.status, JSON.stringify(r.body.error_detail)).toBe(200);
    expect(r.body.face_detail_infos[0].face_detail_attributes_info.skin).toEqual({ type: 0, probability: 0 });
    const colour = await analyse(fixture('obama_official_portrait.jpg'), { face_attributes_type: 'Skin' });
    expect(colour.body.face_detail_infos[0].face_detail_attributes_info.skin.probability).toBeGreaterThan(0);
  });

  it('answers faces largest first up to max_face_num, attributes only for those asked', async () => {
    const one = await analyse(pair, { face_attributes_type: 'Gender' });
    expect(one.body.face_detail_infos).toHaveLength(1);
    const two = await analyse(pair, { max_face_num: '120', face_attributes_type: 'Gender,Headpose' });
    expect(two.status, JSON.stringify(two.body.error_detail)).toBe(200);
    const [big, small] = two.body.face_detail_infos;
    expect(two.body.face_detail_infos).toHaveLength(2);
    expect(big.face_rect.width * big.face_rect.height).toBeGreaterThan(small.face_rect.width * small.face_rect.height);
    expect(big.face_rect.x).toBeLessThan(small.face_rect.x);
    expect(big.face_detail_attributes_info.gender.type).toBe(0);
    expect(small.face_detail_attributes_info.gender.type).toBe(1);
    expect(small.face_detail_attributes_info.emotion).toEqual({ type: 0, probability: 0 });
    expect(small.face_detail_attributes_info.age).toBe(0);
  });

  it('reads a face on its side (need_rotate_detection on): its attributes, and a head pose rolled a quarter turn', async () => {
    const searched = await analyse(fixture('astronaut_rot90cw.png'), { need_rotate_detection: '1', face_attributes_type: 'Gender,Headpose' });
    expect(searched.status, JSON.stringify(searched.body.error_detail)).toBe(200);
    const a = searched.body.face_detail_infos[0].face_detail_attributes_info;
    expect(a.gender.type).toBe(1);
    expect(Math.abs(a.head_pose.roll)).toBeGreaterThan(60);
  });

  it('counts the small faces of a group photo, and finds those of its black-and-white copy', async () => {
    // Eight public-domain portraits in two rows (the laughing pair twice: ten faces), faces of 30 to 90 px.
    const { image, tiles } = await group(180);
    const faces = async (photo: Buffer) => {
      const r = await analyse(photo, { max_face_num: '120', face_attributes_type: 'Headpose' });
      expect(r.status, JSON.stringify(r.body.error_detail)).toBe(200);
      return r.body.face_detail_infos.map((f: any) => f.face_rect) as { x: number; y: number; width: number; height: number }[];
    };
    const inTile = (f: { x: number; y: number; width: number; height: number }) =>
      tiles.some((t) => f.x + f.width / 2 > t.left && f.x + f.width / 2 < t.left + t.width && f.y + f.height / 2 > t.top && f.y + f.height / 2 < t.top + t.height);
    const colour = await faces(image);
    expect(colour).toHaveLength(10);
    expect(colour.every(inTile)).toBe(true);
    // Grey: blazeface alone found 2 of the 10 (the mesh model learnt skin colour); the second detector and
    // the skin-toned view find most, and nothing outside the portraits.
    const grey = await faces(await sharp(image).grayscale().jpeg({ quality: 90 }).toBuffer());
    expect(grey.length).toBeGreaterThanOrEqual(7);
    expect(grey.length).toBeLessThanOrEqual(10);
    expect(grey.every(inTile)).toBe(true);
  });

  it('422 without a face; 400 for values outside the contract', async () => {
    const cup = await analyse(fixture('product_coffee_cup.png'));
    expect(cup.status).toBe(422);
    expect(cup.body.error_detail.code).toBe('ERROR_NO_FACE_IN_FILE');
    const bad: Record<string, string>[] = [{ max_face_num: '0' }, { max_face_num: '121' }, { face_attributes_type: 'Age,Height' }, { need_rotate_detection: '2' }];
    for (const fields of bad) {
      const r = await analyse(fixture('obama_official_portrait.jpg'), fields);
      expect(r.status, JSON.stringify(fields)).toBe(400);
      expect(r.body.error_detail.code).toBe('ERROR_INVALID_PARAMETER');
    }
  });
});
