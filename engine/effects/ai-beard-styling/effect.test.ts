/**
 * Beard styling over real HTTP on the public-domain portraits in engine/test/fixtures: a preset, a template
 * (a beard this endpoint drew on one portrait, carried onto the other), a moustache on a stubbled
 * portrait (the stubble removed), both (the preset wins), neither,
 * a bad preset, the numbered part names, and photos without a face.
 */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, form, get, pollTask, post, solidPng, startTestEngine, waitReady, type TestEngine } from '../../test/helpers.ts';

const BEARD = '/api/portrait/editing/ai-beard-styling';
let e: TestEngine;
beforeAll(async () => { e = await startTestEngine(); await waitReady(e); });
afterAll(async () => { await e.close(); });

type Outcome = { error: { code: string; message: string } } | { png: Buffer; data: Buffer; width: number; height: number };

/** Submits, waits, and returns the result's pixels (or the failed task's answer). */
async function run(fields: Record<string, string | Buffer>): Promise<Outcome> {
  const submitted = await post(e, BEARD, form(fields, 'photo.jpg'));
  expect(submitted.status).toBe(200);
  const done = await pollTask(e, submitted.body.task_id, 180_000);
  expect(done.body.task_status).toBe(2);
  if (done.body.error_detail.code) return { error: done.body.error_detail as { code: string; message: string } };
  const png = (await get(e, new URL(done.body.data.result_urls[0]).pathname, {})).body as Buffer;
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { png, data, width: info.width, height: info.height };
}

async function pixels(buf: Buffer) {
  const { data, info } = await sharp(buf).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Share of pixels in a box (fractions of the image) that moved by more than 12 in some channel. */
function changed(a: { data: Buffer; width: number }, b: { data: Buffer }, box: [number, number, number, number], height: number) {
  const [x0, y0, x1, y1] = [box[0] * a.width, box[1] * height, box[2] * a.width, box[3] * height].map(Math.round);
  let n = 0, moved = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const o = (y * a.width + x) * 3;
      n++;
      if (Math.abs(a.data[o] - b.data[o]) > 12 || Math.abs(a.data[o + 1] - b.data[o + 1]) > 12 || Math.abs(a.data[o + 2] - b.data[o + 2]) > 12) moved++;
    }
  }
  return moved / n;
}

/** 1 where a pixel moved by more than 12 in some channel. */
function movedMask(a: { data: Buffer }, b: { data: Buffer }): Uint8Array {
  const m = new Uint8Array(a.data.length / 3);
  for (let i = 0; i < m.length; i++) for (let c = 0; c < 3; c++) if (Math.abs(a.data[i * 3 + c] - b.data[i * 3 + c]) > 12) m[i] = 1;
  return m;
}

/** Mean colour of the result where it moved: its luma (0..255, and the photo's there before) and saturation ((max - min) / max). */
function changedColour(a: { data: Buffer }, b: { data: Buffer }) {
  const m = movedMask(a, b);
  let n = 0, luma = 0, sat = 0, lumaBefore = 0;
  const rgb = [0, 0, 0], was = [0, 0, 0];
  for (let i = 0; i < m.length; i++) if (m[i]) { n++; for (let c = 0; c < 3; c++) { rgb[c] += b.data[i * 3 + c]; was[c] += a.data[i * 3 + c]; } }
  const y = (c: number[]) => 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];
  if (n) { for (let c = 0; c < 3; c++) { rgb[c] /= n; was[c] /= n; } luma = y(rgb); lumaBefore = y(was); sat = (Math.max(...rgb) - Math.min(...rgb)) / Math.max(1, Math.max(...rgb)); }
  return { n, luma, lumaBefore, saturation: sat };
}

/** Mean |luma - luma blurred by 1.5 px| over the mask's pixels: the fine detail hair has and smooth skin lacks. */
async function fineEnergy(image: Buffer, mask: Uint8Array): Promise<number> {
  const grey = await sharp(image).rotate().removeAlpha().greyscale().raw().toBuffer();
  const blur = await sharp(image).rotate().removeAlpha().greyscale().blur(1.5).raw().toBuffer();
  let s = 0, n = 0;
  for (let i = 0; i < mask.length; i++) if (mask[i]) { s += Math.abs(grey[i] - blur[i]); n++; }
  return n ? s / n : 0;
}

// Obama's official portrait (910 x 1137): the mesh's chin lies at about x 0.50-0.59, y 0.325-0.36 of the
// photo (lower lip 0.315, chin tip 0.365); its left and right fifths are flags and wall.
const CHIN: [number, number, number, number] = [0.5, 0.325, 0.59, 0.36];
const SIDES: [number, number, number, number][] = [[0, 0, 0.2, 1], [0.8, 0, 1, 1]];

describe('ai-beard-styling', () => {
  let bearded: Buffer;

  it('draws a preset beard on the chin and leaves the rest of the photo as it was', async () => {
    const before = await pixels(fixture('obama_official_portrait.jpg'));
    const r = await run({ image: fixture('obama_official_portrait.jpg'), beard: 'FullBeardClassic' });
    if ('error' in r) throw new Error(r.error.message);
    expect([r.width, r.height]).toEqual([before.width, before.height]);
    expect(changed(before, r, CHIN, r.height)).toBeGreaterThan(0.5);
    for (const side of SIDES) expect(changed(before, r, side, r.height)).toBe(0);
    bearded = r.png;
  }, 240_000);

  it('answers the same beard for the same photo and preset (seeded)', async () => {
    const again = await run({ image: fixture('obama_official_portrait.jpg'), beard: 'FullBeardClassic' });
    if ('error' in again) throw new Error(again.error.message);
    expect(again.png.equals(bearded)).toBe(true);
  }, 240_000);

  it('carries a template photo\'s beard onto the face, read from the numbered part names', async () => {
    const target = await pixels(fixture('astronaut_eileen_collins.png'));
    const f = new FormData();
    f.append('0.image', new Blob([new Uint8Array(fixture('astronaut_eileen_collins.png'))]), 'astronaut.png');
    f.append('1.image_template', new Blob([new Uint8Array(bearded)]), 'template.png');
    const submitted = await post(e, BEARD, f);
    expect(submitted.body.error_detail.message).toBe('');
    expect(submitted.status).toBe(200);
    const done = await pollTask(e, submitted.body.task_id, 180_000);
    expect(done.body.error_detail.code).toBe('');
    const out = await pixels((await get(e, new URL(done.body.data.result_urls[0]).pathname, {})).body as Buffer);
    // The astronaut's chin (about x 0.39-0.47, y 0.31-0.34 of the photo) takes the beard; the top left
    // corner (flag and wall) stays.
    expect(changed(target, out, [0.39, 0.31, 0.47, 0.34], out.height)).toBeGreaterThan(0.3);
    expect(changed(target, out, [0, 0, 0.2, 0.2], out.height)).toBe(0);
  }, 240_000);

  it('removes the face\'s own beard where the style leaves bare skin (a moustache on a stubbled face)', async () => {
    const clean = await pixels(fixture('obama_official_portrait.jpg'));
    // Stubble this endpoint draws (a dense drawn full beard leaves the removal no skin to read its tone from).
    const stubbled = await run({ image: fixture('obama_official_portrait.jpg'), beard: 'HeavyStubble' });
    if ('error' in stubbled) throw new Error(stubbled.error.message);
    const beardedPx = await pixels(stubbled.png);
    const r = await run({ image: stubbled.png, beard: 'ChevronMoustache' });
    if ('error' in r) throw new Error(r.error.message);
    // Over the chin, the hair's fine texture (mean luma step between neighbours) falls to under 0.6 of the
    // stubbled photo's. (Its tone is the removal's own business: on an all-stubbled face it fills darker
    // than the clean skin, see looks/beard/mask.ts.)
    const texture = (a: { data: Buffer; width: number }) => {
      const [x0, y0, x1, y1] = [CHIN[0] * a.width, CHIN[1] * r.height, CHIN[2] * a.width, CHIN[3] * r.height].map(Math.round);
      const luma = (o: number) => 0.299 * a.data[o] + 0.587 * a.data[o + 1] + 0.114 * a.data[o + 2];
      let s = 0, n = 0;
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) { const o = (y * a.width + x) * 3; s += Math.abs(luma(o) - luma(o + 3)) + Math.abs(luma(o) - luma(o + a.width * 3)); n++; }
      return s / n;
    };
    expect(texture(beardedPx)).toBeGreaterThan(1.5 * texture(clean));
    expect(texture(r)).toBeLessThan(0.6 * texture(beardedPx));
  }, 240_000);

  it('gives a white-haired senior a light grey beard and a brown-haired face a darker, coloured one (the hair colour)', async () => {
    const beardColour = async (file: string) => {
      const before = await pixels(fixture(file));
      const r = await run({ image: fixture(file), beard: 'FullBeardClassic' });
      if ('error' in r) throw new Error(r.error.message);
      return changedColour(before, r);
    };
    const senior = await beardColour('senior_balding_thinning_white_hair_01.jpg');
    const brown = await beardColour('astronaut_eileen_collins.png');
    expect(senior.n).toBeGreaterThan(2000);
    expect(brown.n).toBeGreaterThan(2000);
    // Against the skin it covers (the photos differ in exposure): white hair's beard about as light as the
    // skin, a brown one far darker; and white hair's nearly colourless.
    expect(senior.luma / senior.lumaBefore).toBeGreaterThan(0.75);
    expect(brown.luma / brown.lumaBefore).toBeLessThan(0.65);
    expect(senior.saturation).toBeLessThan(0.2);
    expect(brown.saturation).toBeGreaterThan(senior.saturation + 0.1);
  }, 480_000);

  it('lays a beard with hair-like fine texture, comparable to a real beard\'s', async () => {
    const before = await pixels(fixture('obama_official_portrait.jpg'));
    const r = await run({ image: fixture('obama_official_portrait.jpg'), beard: 'FullBeardClassic' });
    if ('error' in r) throw new Error(r.error.message);
    const after = await fineEnergy(r.png, movedMask(before, r));
    // A real beard: the library's short full beard (cut from a CC0 portrait at about its own scale), over its core.
    // A flat fill's would be near 0 (its edge only); noise's far above.
    const real = await sharp(readFileSync(new URL('./exemplars/beard_full_short_black_glasses_03.png', import.meta.url))).raw().toBuffer({ resolveWithObject: true });
    const core = new Uint8Array(real.info.width * real.info.height).map((_, i) => (real.data[i * 4 + 3] >= 200 ? 1 : 0));
    const reference = await fineEnergy(await sharp(real.data, { raw: { width: real.info.width, height: real.info.height, channels: 4 } }).removeAlpha().png().toBuffer(), core);
    expect(after).toBeGreaterThan(0.7 * reference);
    expect(after).toBeLessThan(3 * reference);
  }, 240_000);

  it('changes only the largest face of a group photo', async () => {
    const before = await pixels(fixture('biden_obama_laughing_heads.jpg'));
    const r = await run({ image: fixture('biden_obama_laughing_heads.jpg'), beard: 'FullBeardClassic' });
    if ('error' in r) throw new Error(r.error.message);
    // The two heads sit in the photo's left and right halves: one takes a beard, the other is untouched.
    const halves = [changed(before, r, [0, 0, 0.5, 1], r.height), changed(before, r, [0.5, 0, 1, 1], r.height)].sort((a, b) => a - b);
    expect(halves[1]).toBeGreaterThan(0.01);
    expect(halves[0]).toBe(0);
  }, 240_000);

  it('uses the preset when both a preset and a template are given', async () => {
    const presetOnly = await run({ image: fixture('astronaut_eileen_collins.png'), beard: 'SoulPatch' });
    const both = await run({ image: fixture('astronaut_eileen_collins.png'), beard: 'SoulPatch', image_template: bearded });
    if ('error' in presetOnly || 'error' in both) throw new Error('failed');
    expect(both.png.equals(presetOnly.png)).toBe(true);
  }, 240_000);

  it('refuses a request with neither a preset nor a template (400 MISSING_PARAMETERS)', async () => {
    const r = await post(e, BEARD, form({ image: fixture('obama_official_portrait.jpg') }, 'p.jpg'));
    expect(r.status).toBe(400);
    expect(r.body.error_detail.code).toBe('MISSING_PARAMETERS');
    expect(r.body.error_detail.message).toMatch(/beard or image_template/);
  });

  it('refuses an unknown preset with the allowed names (400)', async () => {
    const r = await post(e, BEARD, form({ image: fixture('obama_official_portrait.jpg'), beard: 'Walrus' }, 'p.jpg'));
    expect(r.status).toBe(400);
    expect(r.body.error_detail.code).toBe('ERROR_INVALID_PARAMETER');
    expect(r.body.error_detail.message).toMatch(/beard: expected one of FullBeardClassic, .*PetiteGoatee, got "Walrus"/);
  });

  it('answers ERROR_NO_FACE_IN_FILE for a photo or a template without a face', async () => {
    const noFace = await run({ image: await solidPng(320, 320), beard: 'Goatee' });
    expect('error' in noFace && noFace.error.code).toBe('ERROR_NO_FACE_IN_FILE');
    const noTemplateFace = await run({ image: fixture('obama_official_portrait.jpg'), image_template: await solidPng(320, 320) });
    expect('error' in noTemplateFace && noTemplateFace.error).toMatchObject({ code: 'ERROR_NO_FACE_IN_FILE', message: expect.stringMatching(/image_template/) });
  }, 240_000);

  it('refuses a template whose face has no beard', async () => {
    const r = await run({ image: fixture('obama_official_portrait.jpg'), image_template: fixture('astronaut_eileen_collins.png') });
    expect('error' in r && r.error).toMatchObject({ code: 'ERROR_INVALID_PARAMETER', message: expect.stringMatching(/no beard/) });
  }, 240_000);
});
