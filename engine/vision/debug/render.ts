/**
 * Draws what the vision code found over the image, as a PNG for people to look at: face boxes with
 * score and pose, mesh points (iris points in another colour), masks as tinted overlays, body keypoints.
 * Masks are blended into the pixels; boxes, points and labels are an SVG layer composited by sharp.
 */
import sharp from 'sharp';
import { type Mask } from '../../image/mask.ts';
import type { RasterImage } from '../../image/raster.ts';
import type { Face } from '../faces/detect.ts';
import type { Keypoint } from '../pose/keypoints.ts';

export interface DebugLayers {
  faces?: Face[];
  masks?: { mask: Mask; color: [number, number, number] }[];
  keypoints?: Keypoint[];
}

/** Mask opacity at full coverage. */
const TINT = 0.55;

export async function renderDebug(image: RasterImage, layers: DebugLayers): Promise<Buffer> {
  const { width, height } = image;
  const rgb = toRgb(image);
  for (const { mask, color } of layers.masks ?? []) tint(rgb, mask, color);
  const svg = overlay(width, height, layers);
  return sharp(rgb, { raw: { width, height, channels: 3 } })
    .composite([{ input: Buffer.from(svg), top: 0, left: 0 }])
    .png({ compressionLevel: 6 })
    .toBuffer();
}

function toRgb(image: RasterImage): Buffer {
  const n = image.width * image.height;
  if (image.channels === 3) return Buffer.from(image.data);
  const out = Buffer.alloc(n * 3);
  // Transparent pixels are shown over white, as the studio shows cut-outs.
  for (let i = 0; i < n; i++) {
    const a = image.data[i * 4 + 3] / 255;
    for (let c = 0; c < 3; c++) out[i * 3 + c] = Math.round(image.data[i * 4 + c] * a + 255 * (1 - a));
  }
  return out;
}

function tint(rgb: Buffer, mask: Mask, color: [number, number, number]) {
  if (mask.width * mask.height * 3 !== rgb.length) throw new Error('renderDebug: mask and image sizes differ');
  for (let i = 0, j = 0; i < mask.data.length; i++, j += 3) {
    const a = (mask.data[i] / 255) * TINT;
    if (a === 0) continue;
    for (let c = 0; c < 3; c++) rgb[j + c] = Math.round(rgb[j + c] * (1 - a) + color[c] * a);
  }
}

const f1 = (v: number) => v.toFixed(1);

function overlay(width: number, height: number, layers: DebugLayers): string {
  const unit = Math.max(1, Math.min(width, height) / 400);
  const parts: string[] = [];
  for (const [i, face] of (layers.faces ?? []).entries()) {
    const { x0: x, y0: y, w, h } = face.box;
    parts.push(`<rect x="${f1(x)}" y="${f1(y)}" width="${f1(w)}" height="${f1(h)}" fill="none" stroke="#00ff66" stroke-width="${f1(1.5 * unit)}"/>`);
    const pose = face.pose ? ` y${Math.round(face.pose.yaw)} p${Math.round(face.pose.pitch)} r${Math.round(face.pose.roll)}` : '';
    const label = `#${i} ${face.score.toFixed(2)}${face.rotation ? ` rot${face.rotation}` : ''}${pose}`;
    parts.push(`<text x="${f1(x)}" y="${f1(Math.max(10 * unit, y - 3 * unit))}" font-family="sans-serif" font-size="${f1(10 * unit)}" fill="#00ff66" stroke="#000" stroke-width="${f1(0.3 * unit)}">${label}</text>`);
    const r = Math.max(0.6, Math.min(2 * unit, w / 150));
    for (const [k, p] of (face.mesh ?? []).entries()) {
      parts.push(`<circle cx="${f1(p[0])}" cy="${f1(p[1])}" r="${f1(k >= 468 ? r * 1.3 : r)}" fill="${k >= 468 ? '#ff2020' : '#20e0ff'}"/>`);
    }
  }
  for (const k of layers.keypoints ?? []) {
    const col = k.score >= 0.3 ? '#ffdd00' : '#886600';
    parts.push(`<circle cx="${f1(k.x)}" cy="${f1(k.y)}" r="${f1(3 * unit)}" fill="${col}" stroke="#000" stroke-width="${f1(0.5 * unit)}"/>`);
    parts.push(`<text x="${f1(k.x + 4 * unit)}" y="${f1(k.y)}" font-family="sans-serif" font-size="${f1(7 * unit)}" fill="${col}">${k.name}</text>`);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${parts.join('')}</svg>`;
}
