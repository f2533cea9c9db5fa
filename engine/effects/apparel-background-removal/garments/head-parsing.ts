/**
 * What the face parser (BiSeNetV2 on CelebAMask-HQ) sees around the largest faces, at the garment parse's
 * work size: the probability of hat, hair, cloth, skin and background per work pixel. The parser learnt
 * hats on heads and the collar below the chin; the garment model reads these per superpixel
 * (apparel-features.ts). Only the few largest faces are parsed (one parse is about 0.1-0.2 s of CPU).
 */
import type { RasterImage } from '../../../image/raster.ts';
import type { Face } from '../../../vision/faces/detect.ts';
import { parseFaceAt, type FaceParser, type ImageLattice } from '../../../vision/parsing/face-parsing.ts';
import { HEAD_FACES, HEAD_INPUT } from './tuning.ts';

export const HEAD_CLASSES = ['hat', 'hair', 'cloth', 'skin', 'background'] as const;
export type HeadClass = (typeof HEAD_CLASSES)[number];

export interface HeadParsing {
  width: number; height: number;
  /** Per class, its probability 0..255 per work pixel: the highest over the parsed faces (0 outside their crops). */
  planes: Record<HeadClass, Uint8Array>;
  /** 1 where a parsed face's crop covers the work pixel. */
  covered: Uint8Array;
}

/** The work-size pixel centres in image pixels. */
export function workLattice(image: { width: number; height: number }, width: number, height: number): ImageLattice {
  const at = (n: number, N: number) => Int32Array.from({ length: n }, (_, i) => Math.min(N - 1, Math.floor(((i + 0.5) * N) / n)));
  return { cols: at(width, image.width), rows: at(height, image.height) };
}

/** The parsing of the HEAD_FACES largest faces at width x height (the image's work size). */
export async function parseHeads(parser: FaceParser, image: RasterImage, faces: readonly Face[], width: number, height: number): Promise<HeadParsing> {
  const n = width * height;
  const planes = Object.fromEntries(HEAD_CLASSES.map((c) => [c, new Uint8Array(n)])) as Record<HeadClass, Uint8Array>;
  const covered = new Uint8Array(n);
  const largest = [...faces].sort((a, b) => b.box.w * b.box.h - a.box.w * a.box.h).slice(0, HEAD_FACES);
  const at = workLattice(image, width, height);
  for (const face of largest) {
    const p = await parseFaceAt(parser, image, face, at, { input: HEAD_INPUT, classes: HEAD_CLASSES });
    for (const c of HEAD_CLASSES) {
      const src = p.classes[c], dst = planes[c];
      if (src) for (let i = 0; i < n; i++) if (src[i] > dst[i]) dst[i] = src[i];
    }
    const { x0, y0, w, h } = p.win;
    for (let y = 0; y < height; y++) {
      const iy = at.rows[y];
      if (iy < y0 || iy >= y0 + h) continue;
      for (let x = 0; x < width; x++) { const ix = at.cols[x]; if (ix >= x0 && ix < x0 + w) covered[y * width + x] = 1; }
    }
  }
  return { width, height, planes, covered };
}
