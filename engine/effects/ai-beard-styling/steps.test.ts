/**
 * A preset drawn on a real face (Obama's official portrait, public domain) leaves the lips and the open
 * mouth the person's own: his smile's upper lip lies inside the moustache's mesh outline, and hair over it
 * cost human's face descriptor most of its similarity.
 */
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RasterImage } from '../../image/raster.ts';
import { jobFacts } from '../../pipeline/facts.ts';
import { fixture } from '../../test/helpers.ts';
import { ModelRegistry } from '../../vision/models/registry.ts';
import { parsingPlane } from '../../vision/regions/skin-mask.ts';
import { loadLibrary } from './exemplar.ts';
import { drawPreset, keepUnderStyle, PARSE } from './steps.ts';
import { faceShape } from './shape.ts';
import { presetByName } from './presets.ts';
import { gauss } from '../../image/gauss.ts';
import { EDGE_THIN } from './tuning.ts';

beforeAll(loadLibrary);

describe('drawPreset', () => {
  it('draws a moustache above the lips and leaves the lips and the mouth as they were', async () => {
    const { data, info } = await sharp(fixture('obama_official_portrait.jpg')).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const image: RasterImage = { data, width: info.width, height: info.height, channels: 3 };
    const facts = jobFacts(image, new ModelRegistry({ threads: 1 }));
    const face = (await facts.faces())[0];
    const parsing = await facts.parsing(face, PARSE);
    const lips = parsingPlane(parsing, ['upperLip', 'lowerLip', 'mouth'], parsing.win);
    for (const name of ['HandlebarMoustache', 'ChevronMoustache', 'FullBeardClassic']) {
      const result = { ...image, data: Buffer.from(image.data) };
      drawPreset(image, result, face, parsing, name, 0);
      let lipPx = 0, lipMoved = 0, moved = 0;
      for (let y = 0; y < image.height; y++) {
        for (let x = 0; x < image.width; x++) {
          const o = (y * image.width + x) * 3;
          const d = Math.max(...[0, 1, 2].map((c) => Math.abs(result.data[o + c] - image.data[o + c])));
          if (d > 12) moved++;
          const px = x - parsing.win.x0, py = y - parsing.win.y0;
          if (px < 0 || py < 0 || px >= parsing.win.w || py >= parsing.win.h || lips[py * parsing.win.w + px] < 0.5) continue;
          lipPx++;
          if (d > 12) lipMoved++;
        }
      }
      expect(lipPx, name).toBeGreaterThan(1000);
      // A third of the lips' area: a real moustache's texture in a dark-haired man's colour over dark skin moves
      // fewer pixels by more than 12 than the drawn strands' opaque body did (half).
      expect(moved, name).toBeGreaterThan(lipPx / 3);
      expect(lipMoved / lipPx, name).toBeLessThan(0.01);
    }
  }, 120_000);

  it('lays a full beard with no pale blocks: its body is hair throughout, not the exemplar\'s skin or mouth patches', async () => {
    const { image, face, parsing } = await obama();
    for (const name of ['FullBeardClassic', 'Garibaldi', 'Bandholz']) {
      const { shape, win, n, L } = drawnLuma(image, face, parsing, name);
      // The beard's full-coverage body, inside the band where its edge thins (EDGE_THIN), away from the lips
      // and mouth (kept the person's own) and the backdrop.
      const lips = gauss(parsingPlane(parsing, ['upperLip', 'lowerLip', 'mouth', 'background'], win), win.w, win.h, 0.03 * shape.faceWidth);
      const inside = gauss(shape.union, win.w, win.h, EDGE_THIN * shape.faceWidth);
      const patches = gauss(L, win.w, win.h, 0.02 * shape.faceWidth);
      const body: number[] = [];
      for (let i = 0; i < n; i++) if (inside[i] >= 0.95 && lips[i] < 0.05) body.push(patches[i]);
      body.sort((a, b) => a - b);
      const median = body[body.length >> 1];
      // Patches a fiftieth of the face wide and 20 levels lighter than the beard's middle: skin or lip
      // carried over from the exemplar (11-13 % of the body when the exemplar's own patches were laid).
      expect(body.length, name).toBeGreaterThan(3000);
      expect(body.filter((l) => l > median + 20).length / body.length, name).toBeLessThan(0.03);
    }
  }, 120_000);

  it('lays a full beard as strands along the hair\'s flow, not an isotropic stipple', async () => {
    const { image, face, parsing } = await obama();
    for (const name of ['FullBeardClassic', 'Garibaldi']) {
      const { shape, win, n, L } = drawnLuma(image, face, parsing, name);
      const lips = gauss(parsingPlane(parsing, ['upperLip', 'lowerLip', 'mouth', 'background'], win), win.w, win.h, 0.03 * shape.faceWidth);
      const inside = gauss(shape.union, win.w, win.h, EDGE_THIN * shape.faceWidth);
      // Over the beard's body, the luma's gradient energy across the face's down direction (the way a beard's
      // hair grows on a frontal face) against along it: strands make the first larger (light and dark runs
      // side by side); a stipple of dots and flecks has about as much of each.
      const [dx, dy] = shape.down;
      let across = 0, along = 0;
      for (let y = 1; y < win.h - 1; y++) {
        for (let x = 1; x < win.w - 1; x++) {
          const i = y * win.w + x;
          if (inside[i] < 0.95 || lips[i] >= 0.05) continue;
          const gx = (L[i + 1] - L[i - 1]) / 2, gy = (L[i + win.w] - L[i - win.w]) / 2;
          along += (gx * dx + gy * dy) ** 2; across += (gx * -dy + gy * dx) ** 2;
        }
      }
      // Obama: 1.86 / 1.84 when the exemplar's isotropic detail was laid as it is, 4.7 / 5.0 streaked along the flow.
      expect(across / along, name).toBeGreaterThan(3);
    }
  }, 120_000);

  it('keeps a moustache off what the parsing calls background (past the silhouette of a turned face)', async () => {
    const { data, info } = await sharp(fixture('obama_official_portrait.jpg')).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const image: RasterImage = { data, width: info.width, height: info.height, channels: 3 };
    const facts = jobFacts(image, new ModelRegistry({ threads: 1 }));
    const face = (await facts.faces())[0];
    const parsing = await facts.parsing(face, PARSE);
    // The image's right half of the face called background, as a profile's far side would be.
    const { x0, w, h } = parsing.win, cut = Math.round((face.mesh![13][0]) - x0);
    const background = new Uint8Array(w * h);
    for (let y = 0; y < h; y++) for (let x = cut; x < w; x++) background[y * w + x] = 255;
    const result = { ...image, data: Buffer.from(image.data) };
    drawPreset(image, result, face, { ...parsing, classes: { ...parsing.classes, background } }, 'HandlebarMoustache', 0);
    let left = 0, right = 0;
    for (let y = 0; y < image.height; y++) {
      for (let x = 0; x < image.width; x++) {
        const o = (y * image.width + x) * 3;
        if (Math.max(...[0, 1, 2].map((c) => Math.abs(result.data[o + c] - image.data[o + c]))) <= 12) continue;
        if (x < x0 + cut - 30) left++; else if (x > x0 + cut + 30) right++;
      }
    }
    expect(left).toBeGreaterThan(300);
    expect(right).toBe(0);
  }, 120_000);

  it('grows a beard only on the person on a turned face\'s far side, and past its jaw elsewhere', async () => {
    const { data, info } = await sharp(fixture('obama_official_portrait.jpg')).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const image: RasterImage = { data, width: info.width, height: info.height, channels: 3 };
    const facts = jobFacts(image, new ModelRegistry({ threads: 1 }));
    const frontal = (await facts.faces())[0];
    const parsing = await facts.parsing(frontal, PARSE);
    const m = frontal.mesh!, fw = Math.hypot(m[454][0] - m[234][0], m[454][1] - m[234][1]);
    // Background from a fifth of the face's width right of the chin, as a profile's far side would be; the
    // same photo told it is turned toward the image's right (its far side there) or not.
    const { x0, w, h } = parsing.win, cut = Math.round(m[152][0] + 0.2 * fw - x0);
    const background = new Uint8Array(w * h);
    for (let y = 0; y < h; y++) for (let x = cut; x < w; x++) background[y * w + x] = 255;
    const beyond = (yaw: number) => {
      const result = { ...image, data: Buffer.from(image.data) };
      drawPreset(image, result, { ...frontal, pose: { yaw, pitch: 0, roll: 0 } }, { ...parsing, classes: { ...parsing.classes, background } }, 'FullBeardClassic', 0);
      // Strands' tips may cross the silhouette by about a strand (0.05 face widths); past twice that, nothing.
      let n = 0;
      for (let y = 0; y < image.height; y++) {
        for (let x = x0 + cut + Math.round(0.1 * fw); x < image.width; x++) {
          const o = (y * image.width + x) * 3;
          if (Math.max(...[0, 1, 2].map((c) => Math.abs(result.data[o + c] - image.data[o + c]))) > 12) n++;
        }
      }
      return n;
    };
    expect(beyond(0)).toBeGreaterThan(1000);
    expect(beyond(-35)).toBeGreaterThan(1000);
    expect(beyond(35)).toBe(0);
  }, 120_000);

  it('keeps a beard off what the parsing calls hat over the face\'s side (a headscarf), not off cloth', async () => {
    const { data, info } = await sharp(fixture('obama_official_portrait.jpg')).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const image: RasterImage = { data, width: info.width, height: info.height, channels: 3 };
    const facts = jobFacts(image, new ModelRegistry({ threads: 1 }));
    const face = (await facts.faces())[0];
    const parsing = await facts.parsing(face, PARSE);
    const m = face.mesh!, fw = Math.hypot(m[454][0] - m[234][0], m[454][1] - m[234][1]);
    // The image's left of the face, from a fifth of its width left of the chin, called hat or cloth.
    const { x0, w, h } = parsing.win, cut = Math.round(m[152][0] - 0.2 * fw - x0);
    const side = new Uint8Array(w * h);
    for (let y = 0; y < h; y++) for (let x = 0; x < cut; x++) side[y * w + x] = 255;
    const beside = (classes: Record<string, Uint8Array>) => {
      const result = { ...image, data: Buffer.from(image.data) };
      drawPreset(image, result, face, { ...parsing, classes: { ...parsing.classes, ...classes } }, 'FullBeardClassic', 0);
      let n = 0;
      for (let y = 0; y < image.height; y++) {
        for (let x = 0; x < x0 + cut - 2; x++) {
          const o = (y * image.width + x) * 3;
          if (Math.max(...[0, 1, 2].map((c) => Math.abs(result.data[o + c] - image.data[o + c]))) > 12) n++;
        }
      }
      return n;
    };
    const bare = beside({});
    expect(bare).toBeGreaterThan(1000);
    expect(beside({ hat: side })).toBe(0);
    // Cloth beside a jaw is the shirt or jacket a beard lies over.
    expect(beside({ cloth: side })).toBe(bare);
  }, 120_000);
});

describe('keepUnderStyle', () => {
  it('brings the photo back under the dense parts in proportion to their coverage, not under stubble', () => {
    // A 4 x 1 window at (1, 0) of a 6 x 1 photo: a dense part over its first three pixels (full, half,
    // none), a stubble part over the last two.
    const image: RasterImage = { data: Buffer.alloc(18, 200), width: 6, height: 1, channels: 3 };
    const result: RasterImage = { ...image, data: Buffer.alloc(18, 100) };
    const win = { x0: 1, y0: 0, w: 4, h: 1 };
    keepUnderStyle(image, result, { win, coverage: [Float32Array.of(1, 0.5, 0, 0), Float32Array.of(0, 0, 1, 1)] }, [true, false]);
    expect([...result.data].filter((_, i) => i % 3 === 0)).toEqual([100, 200, 150, 100, 100, 100]);
  });
});

/** Obama's portrait with its first face and parse, as the full-beard tests read them. */
async function obama() {
  const { data, info } = await sharp(fixture('obama_official_portrait.jpg')).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const image: RasterImage = { data, width: info.width, height: info.height, channels: 3 };
  const facts = jobFacts(image, new ModelRegistry({ threads: 1 }));
  const face = (await facts.faces())[0];
  return { image, face, parsing: await facts.parsing(face, PARSE) };
}

/** Draws a preset on a copy of `image` and gives the luma of its window with the preset's shape. */
function drawnLuma(image: RasterImage, face: Awaited<ReturnType<typeof obama>>['face'], parsing: Awaited<ReturnType<typeof obama>>['parsing'], name: string) {
  const result = { ...image, data: Buffer.from(image.data) };
  drawPreset(image, result, face, parsing, name, 0);
  const shape = faceShape(presetByName(name)!, face.mesh!, image);
  const { win } = shape, n = win.w * win.h;
  const L = new Float32Array(n);
  for (let y = 0; y < win.h; y++) {
    for (let x = 0; x < win.w; x++) { const o = ((win.y0 + y) * image.width + win.x0 + x) * 3; L[y * win.w + x] = 0.299 * result.data[o] + 0.587 * result.data[o + 1] + 0.114 * result.data[o + 2]; }
  }
  return { shape, win, n, L };
}
