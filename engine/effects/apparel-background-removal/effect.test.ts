/**
 * Apparel background removal over real HTTP on a public-domain portrait (suit jacket, shirt and tie, arms
 * crossed; cut at the waist, so no trousers, shoes, bag or hat), on a drawn pair of trousers alone and on
 * a coffee cup (no person, no garment).
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, form, get, post, startTestEngine, waitReady, type TestEngine } from '../../test/helpers.ts';

const PATH = '/api/cutout/general/apparel-background-removal';
let e: TestEngine;
const portrait = fixture('obama_official_portrait.jpg'); // 910x1137

beforeAll(async () => { e = await startTestEngine(); await waitReady(e, 170_000); });
afterAll(async () => { await e?.close(); });

async function call(fields: Record<string, string | Buffer>) {
  const r = await post(e, PATH, form(fields));
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data.elements as [{ image_url: string }, { class_url: Record<string, string> }];
}

async function image(url: string) {
  const body = (await get(e, new URL(url).pathname, {})).body as Buffer;
  const meta = await sharp(body).metadata();
  // sharp widens a grey PNG to sRGB on raw output unless told to keep one channel.
  const s = sharp(body);
  const { data, info } = await (meta.channels === 1 ? s.extractChannel(0) : s).raw().toBuffer({ resolveWithObject: true });
  return { meta, data, width: info.width, height: info.height, channels: info.channels };
}

type Img = Awaited<ReturnType<typeof image>>;
/** Share of pixels in the box whose channel c is >= 128. */
function share(img: Img, c: number, x0: number, y0: number, x1: number, y1: number) {
  let n = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (img.data[(y * img.width + x) * img.channels + c] >= 128) n++;
  return n / ((x1 - x0) * (y1 - y0));
}
const total = (img: Img, c: number) => share(img, c, 0, 0, img.width, img.height);

// Regions of the portrait: the jacket below the crossed arms, the face, a background corner.
const JACKET = [120, 1000, 330, 1120] as const;
const FACE = [380, 200, 520, 380] as const;
const CORNER = [0, 0, 80, 80] as const;

describe('apparel-background-removal', () => {
  it('defaults: all the clothing as an RGBA cutout, and one class_url for tops', async () => {
    const [main, classes] = await call({ image: portrait });
    expect(Object.keys(classes.class_url)).toEqual(['tops']);
    const r = await image(main.image_url);
    expect([r.meta.format, r.meta.channels, r.width, r.height]).toEqual(['png', 4, 910, 1137]);
    expect(share(r, 3, ...JACKET)).toBeGreaterThan(0.9);
    expect(share(r, 3, ...FACE)).toBeLessThan(0.05);
    expect(share(r, 3, ...CORNER)).toBe(0);
    // The colours are the photo's (the suit is dark).
    const i = ((1060 * 910) + 200) * 4;
    expect(Math.max(r.data[i], r.data[i + 1], r.data[i + 2])).toBeLessThan(90);
  });

  it('mask: single-channel PNGs, one per requested class; absent classes come back empty', async () => {
    const [main, classes] = await call({ image: portrait, cloth_class: 'tops,coat,shoes,hat,skirt', return_form: 'mask' });
    expect(Object.keys(classes.class_url).sort()).toEqual(['coat', 'hat', 'shoes', 'skirt', 'tops']);
    const m = await image(main.image_url);
    expect([m.meta.channels, m.width, m.height]).toEqual([1, 910, 1137]);
    const c = Object.fromEntries(await Promise.all(Object.entries(classes.class_url).map(async ([k, u]) => [k, await image(u)] as const)));
    for (const img of Object.values(c)) expect([img.meta.channels, img.width, img.height]).toEqual([1, 910, 1137]);
    for (const k of ['shoes', 'hat', 'skirt']) expect(c[k].data.every((v) => v === 0), k).toBe(true);
    // The suit is a coat or a top, and the two together cover the jacket.
    let covered = 0;
    const [x0, y0, x1, y1] = JACKET;
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (Math.max(c.tops.data[y * 910 + x], c.coat.data[y * 910 + x]) >= 128) covered++;
    expect(covered / ((x1 - x0) * (y1 - y0))).toBeGreaterThan(0.9);
    expect(share(c.tops, 0, ...FACE) + share(c.coat, 0, ...FACE)).toBeLessThan(0.05);
  });

  it('out_mode 1: the result is the union of the requested classes', async () => {
    const [main, classes] = await call({ image: portrait, out_mode: '1', cloth_class: 'tops,coat', return_form: 'mask' });
    const r = await image(main.image_url);
    const tops = await image(classes.class_url.tops), coat = await image(classes.class_url.coat);
    let under = 0, over = 0;
    for (let i = 0; i < r.data.length; i++) {
      // The union contains each class (soft seams between two classes may add up to a little more).
      if (r.data[i] < Math.max(tops.data[i], coat.data[i]) - 1) under++;
      if (r.data[i] > Math.min(255, tops.data[i] + coat.data[i]) + 2) over++;
    }
    expect([under, over]).toEqual([0, 0]);
    expect(total(r, 0)).toBeGreaterThan(0.2);
    // Asking for shoes alone on this portrait gives an empty union.
    const [none] = await call({ image: portrait, out_mode: '1', cloth_class: 'shoes', return_form: 'mask' });
    expect((await image(none.image_url)).data.every((v) => v === 0)).toBe(true);
  });

  it('whiteBK: RGB on white', async () => {
    const [main] = await call({ image: portrait, return_form: 'whiteBK' });
    const w = await image(main.image_url);
    expect([w.meta.channels, w.meta.hasAlpha, w.width, w.height]).toEqual([3, false, 910, 1137]);
    for (let y = CORNER[1]; y < CORNER[3]; y++) for (let x = CORNER[0]; x < CORNER[2]; x++) expect(w.data[(y * 910 + x) * 3]).toBe(255);
    expect(share(w, 0, ...FACE)).toBeGreaterThan(0.95); // the face is whitened
    expect(share(w, 0, ...JACKET)).toBeLessThan(0.1); // the dark suit is kept
  });

  it('a garment alone: drawn trousers on white are the clothing, and their class is pants', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="600"><rect width="400" height="600" fill="#f4f4f4"/>
      <path d="M110 60 H290 L330 560 H220 L200 250 L180 560 H70 Z" fill="#2b4a7a" stroke="#1b3050" stroke-width="4"/></svg>`;
    const png = await sharp(Buffer.from(svg)).png().toBuffer();
    const [main, classes] = await call({ image: png, cloth_class: 'pants,tops', return_form: 'mask' });
    const r = await image(main.image_url);
    expect(share(r, 0, 150, 100, 250, 200)).toBeGreaterThan(0.9);
    expect(share(r, 0, 0, 0, 60, 600)).toBe(0);
    expect(share(await image(classes.class_url.pants), 0, 150, 100, 250, 200)).toBeGreaterThan(0.9);
    expect(total(await image(classes.class_url.tops), 0)).toBe(0);
  });

  it('a photo with no person and no garment (a coffee cup) gives empty classes and an empty cutout', async () => {
    const [main, classes] = await call({ image: fixture('product_coffee_cup.png'), cloth_class: 'tops,coat,skirt,pants,bag,shoes,hat', return_form: 'mask' });
    expect(total(await image(main.image_url), 0)).toBe(0);
    for (const [k, u] of Object.entries(classes.class_url)) expect(total(await image(u), 0), k).toBe(0);
  });

  it('finds faces with blazeface alone: face-api is never loaded, even for two faces (where the second detector would look)', async () => {
    const [main] = await call({ image: fixture('biden_obama_laughing_heads.jpg'), return_form: 'mask' });
    expect(total(await image(main.image_url), 0)).toBeGreaterThan(0);
    const h = (await get(e, '/healthz', {})).body;
    expect(h.models['face-api']).toEqual({ state: 'loadable' });
    expect(h.models.human.state).toBe('loaded');
  });

  it('rejects an unknown class, naming the allowed ones', async () => {
    const r = await post(e, PATH, form({ image: portrait, cloth_class: 'tops,socks' }));
    expect(r.status).toBe(400);
    expect(r.body.error_detail.code).toBe('ERROR_INVALID_PARAMETER');
    for (const k of ['cloth_class', 'socks', 'tops, coat, skirt, pants, bag, shoes, hat']) expect(r.body.error_detail.message).toContain(k);
    const mode = await post(e, PATH, form({ image: portrait, out_mode: '2' }));
    expect(mode.status).toBe(400);
    expect(mode.body.error_detail.message).toContain('out_mode');
  });
});
