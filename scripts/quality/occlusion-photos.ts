/**
 * Makes the occluded test photos of engine/test/fixtures/occluded/ (read by scripts/quality/occlusion.ts and
 * engine/test/occlusion.test.ts): a real hand (cut from exemplars/darkskin_man_cleanshaven_01.jpg, CC0), a drawn
 * phone or a drawn microphone pasted over faces of CC0 and public-domain portraits, placed by each face's
 * mesh. Beside each photo, `<name>.mask.png` outlines the occluder (255 = occluder, its exact paste alpha), and
 * the one real occlusion (that man's own hand at his chin) gets the hand's outline.
 *
 *   npx tsx scripts/quality/occlusion-photos.ts      (writes the folder; exits 2 when ../shared/testdata is absent)
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { decodeImage, detectFaces, type Face, ModelRegistry } from '../../engine/for-scripts.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
if (!existsSync(path.join(testdata, 'exemplars'))) {
  console.error(`occlusion-photos: the shared test data is absent (looked in ${testdata}); nothing was made.`);
  process.exit(2);
}
const out = path.join(root, 'engine/test/fixtures/occluded');
mkdirSync(out, { recursive: true });

/** The hand of darkskin_man_cleanshaven_01.jpg (800 x 800), outlined by hand in image pixels; index fingertip first. */
const HAND = [[260, 548], [280, 550], [300, 568], [330, 615], [355, 670], [375, 700], [415, 690], [440, 650], [450, 615], [462, 598], [475, 602],
  [474, 640], [465, 680], [475, 720], [490, 760], [495, 800], [220, 800], [230, 750], [255, 700], [280, 660], [270, 620], [252, 580], [252, 560]];
const HAND_SOURCE = 'exemplars/darkskin_man_cleanshaven_01.jpg';
/** That man's face width (mesh 234 to 454), which the hand is scaled against. */
const HAND_FACE_WIDTH = 330;

const models = new ModelRegistry({ threads: 2 });
const human = await models.get('human');

async function load(rel: string) {
  const bytes = readFileSync(path.join(testdata, rel));
  const image = await decodeImage(bytes, rel.endsWith('.png') ? 'png' : 'jpeg', 1e8);
  const faces = await detectFaces(human, image);
  if (!faces[0]?.mesh) throw new Error(`${rel}: no face with a mesh`);
  return { image, face: faces[0] };
}
const widthOf = (f: Face) => Math.hypot(f.mesh![454][0] - f.mesh![234][0], f.mesh![454][1] - f.mesh![234][1]);
const svgPoly = (pts: number[][]) => pts.map(([x, y]) => `${x},${y}`).join(' ');

/** The occluder as an RGBA layer the photo's size: the hand, or a drawn object, by the face's mesh. */
async function occluder(kind: 'hand' | 'phone' | 'mic', face: Face, size: { width: number; height: number }, flip: boolean): Promise<Buffer> {
  const m = face.mesh!, fw = widthOf(face);
  const { width: W, height: H } = size;
  if (kind === 'hand') {
    // The hand cut out, scaled to this face, its fingertip on the mouth corner on the chosen side.
    const s = fw / HAND_FACE_WIDTH;
    const mask = Buffer.from(`<svg width="800" height="800"><rect width="800" height="800" fill="#000"/><polygon points="${svgPoly(HAND)}" fill="#fff"/></svg>`);
    const alpha = await sharp(mask).blur(1.2).extractChannel(0).raw().toBuffer();
    const rgb = await sharp(readFileSync(path.join(testdata, HAND_SOURCE))).removeAlpha().raw().toBuffer();
    const rgba = Buffer.alloc(800 * 800 * 4);
    for (let i = 0; i < 800 * 800; i++) { rgb.copy(rgba, 4 * i, 3 * i, 3 * i + 3); rgba[4 * i + 3] = alpha[i]; }
    let cut = sharp(rgba, { raw: { width: 800, height: 800, channels: 4 } });
    if (flip) cut = cut.flop();
    const side = Math.round(800 * s);
    const scaled = await cut.resize(side, side).png().toBuffer();
    const tip = flip ? [(800 - HAND[0][0]) * s, HAND[0][1] * s] : [HAND[0][0] * s, HAND[0][1] * s];
    const at = flip ? m[291] : m[61];
    const left = Math.round(at[0] - tip[0] + (flip ? 0.05 : -0.05) * fw), top = Math.round(at[1] - tip[1] - 0.05 * fw);
    // Pasted on a canvas with a margin of the hand's side, so a hand reaching past the photo's edge is cut there.
    const canvas = await sharp({ create: { width: W + 2 * side, height: H + 2 * side, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .composite([{ input: scaled, left: left + side, top: top + side }]).png().toBuffer();
    return sharp(canvas).extract({ left: side, top: side, width: W, height: H }).raw().toBuffer();
  }
  const u = fw / 100;
  const svg = kind === 'phone'
    // A phone held against the cheek: dark body, a bezel, a faint reflection on the glass.
    ? `<svg width="${W}" height="${H}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#3a3d44"/><stop offset="1" stop-color="#121316"/></linearGradient></defs>
       <g transform="translate(${m[flip ? 454 : 234][0] + (flip ? -14 : -22) * u},${m[flip ? 454 : 234][1] - 30 * u}) rotate(${flip ? 12 : -12})">
       <rect width="${36 * u}" height="${76 * u}" rx="${6 * u}" fill="url(#g)"/><rect x="${2.5 * u}" y="${6 * u}" width="${31 * u}" height="${64 * u}" rx="${2 * u}" fill="#1b2230"/>
       <rect x="${6 * u}" y="${10 * u}" width="${8 * u}" height="${40 * u}" fill="#ffffff" opacity="0.08"/></g></svg>`
    // A microphone in front of the mouth: a meshed grey ball on a black handle coming up from below.
    : `<svg width="${W}" height="${H}"><defs><radialGradient id="b" cx="0.35" cy="0.35" r="0.7"><stop offset="0" stop-color="#c9ccd1"/><stop offset="0.6" stop-color="#7c8088"/><stop offset="1" stop-color="#33363b"/></radialGradient>
       <pattern id="p" width="${2.2 * u}" height="${2.2 * u}" patternUnits="userSpaceOnUse"><circle cx="${1.1 * u}" cy="${1.1 * u}" r="${0.5 * u}" fill="#2a2c30" opacity="0.6"/></pattern></defs>
       <g transform="translate(${m[14][0] + (flip ? 8 : -8) * u},${m[14][1] + 6 * u}) rotate(${flip ? -15 : 15})">
       <rect x="${-7 * u}" y="${8 * u}" width="${14 * u}" height="${120 * u}" rx="${4 * u}" fill="#16171a"/><circle r="${16 * u}" fill="url(#b)"/><circle r="${16 * u}" fill="url(#p)"/></g></svg>`;
  return sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer();
}

/** Pastes the layer over the photo; writes the photo (JPEG q92) and its occluder mask (PNG, alpha ≥ 128). */
async function make(name: string, rel: string, kind: 'hand' | 'phone' | 'mic', flip = false) {
  const { image, face } = await load(rel);
  const { width: W, height: H } = image;
  const layer = await occluder(kind, face, image, flip);
  const px = Buffer.from(image.data), mask = Buffer.alloc(W * H);
  for (let i = 0; i < W * H; i++) {
    const a = layer[4 * i + 3] / 255;
    for (let c = 0; c < 3; c++) px[image.channels * i + c] = Math.round(px[image.channels * i + c] * (1 - a) + layer[4 * i + c] * a);
    mask[i] = a >= 0.5 ? 255 : 0;
  }
  await sharp(px, { raw: { width: W, height: H, channels: image.channels } }).removeAlpha().jpeg({ quality: 92 }).toFile(path.join(out, `${name}.jpg`));
  await sharp(mask, { raw: { width: W, height: H, channels: 1 } }).png().toFile(path.join(out, `${name}.mask.png`));
  console.log(`${name}: ${rel} + ${kind}, occluder ${mask.reduce((s, v) => s + (v ? 1 : 0), 0)} px`);
}

/** The real one: the photo as it is, its mask the hand's outline. */
async function real(name: string) {
  const bytes = readFileSync(path.join(testdata, HAND_SOURCE));
  await sharp(bytes).jpeg({ quality: 92 }).toFile(path.join(out, `${name}.jpg`));
  const svg = `<svg width="800" height="800"><rect width="800" height="800" fill="#000"/><polygon points="${svgPoly(HAND)}" fill="#fff"/></svg>`;
  await sharp(Buffer.from(svg)).extractChannel(0).png().toFile(path.join(out, `${name}.mask.png`));
  console.log(`${name}: ${HAND_SOURCE} as it is (real hand at the chin)`);
}

await real('hand_chin_darkskin_man');
await make('hand_mouth_obama', 'portraits/obama_official_portrait.jpg', 'hand');
await make('phone_cheek_astronaut', 'portraits/astronaut_eileen_collins.png', 'phone');
await make('mic_mouth_beard_short_black', 'exemplars/beard_short_black_medium_04.jpg', 'mic');
await make('hand_mouth_stubble_black', 'exemplars/stubble_black_medium_01.jpg', 'hand', true);
await make('phone_cheek_beard_full_glasses', 'exemplars/beard_full_short_black_glasses_03.jpg', 'phone', true);
await make('mic_mouth_darkskin_woman', 'exemplars/darkskin_woman_02.jpg', 'mic', true);
await make('hand_mouth_bald_beard', 'exemplars/bald_shaved_beard_full_black_darkskin_01.jpg', 'hand');
