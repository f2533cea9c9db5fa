/**
 * Any photo in: when a photo breaks an effect's limits (contract/limits.ts) but the browser can decode it, it
 * is converted and downsized here, in the browser, to fit them; the engine keeps its limits. planFit decides
 * (pure, tested in jsdom); fitToLimits draws and encodes (canvas, run in the browser tests).
 */
import type { ImageFormat, ImageLimits } from '../../../../contract/limits.ts';
import { formatBytes } from '../../../lib/format.ts';
import type { Measured } from './check-limits.ts';
import { seenFormatLabel } from './sniff-image.ts';

export interface FitPlan {
  width: number;
  height: number;
  /** The format must change (WebP, GIF, HEIC for an endpoint that does not take it, or a refused PNG depth). */
  convert: boolean;
}

export interface Fitted {
  file: File;
  /** One line saying what was done: "Resized from 4032×3024 to 1999×1499 to fit this effect." */
  note: string;
  width: number;
  height: number;
}

/** Whether this browser can decode and re-encode images (not jsdom). */
export const canFitHere = () => typeof createImageBitmap === 'function' && (typeof OffscreenCanvas !== 'undefined' || typeof document !== 'undefined');

/** What it takes for a decodable photo to fit, or null when it fits already or cannot be decoded here. */
export function planFit(m: Measured, limits: ImageLimits): FitPlan | null {
  if (!m.format || m.decodeFailed || !m.width || !m.height) return null;
  const { width: w, height: h } = m;
  const convert =
    !limits.formats.includes(m.format as ImageFormat) ||
    (m.format === 'png' && m.pngBitsPerPixel !== undefined && (limits.pngRejectBitsPerPixel?.includes(m.pngBitsPerPixel) ?? false));
  const long = Math.max(w, h);
  const short = Math.min(w, h);
  // Floors keep both sides inside the bound (4032×3024 → 1999×1499 under 1999).
  let scale = long > limits.maxSide ? limits.maxSide / long : 1;
  if (short * scale < limits.minSide) scale = limits.minSide / short;
  const width = Math.max(1, scale < 1 ? Math.floor(w * scale) : Math.ceil(w * scale));
  const height = Math.max(1, scale < 1 ? Math.floor(h * scale) : Math.ceil(h * scale));
  const resized = width !== w || height !== h;
  if (!convert && !resized && m.bytes <= limits.maxBytes) return null;
  return { width, height, convert };
}

const mimeLabel: Record<string, string> = { 'image/png': 'PNG', 'image/jpeg': 'JPEG' };

export function fitNote(m: Measured, out: { width: number; height: number; type: string; bytes: number }): string {
  const from = m.format ? seenFormatLabel[m.format] : 'image';
  const to = mimeLabel[out.type] ?? out.type;
  const parts: string[] = [];
  if (from !== to) parts.push(`Converted from ${from} to ${to}`);
  else if (m.format === 'png' && m.pngBitsPerPixel !== undefined && m.pngBitsPerPixel < 24) parts.push(`Converted from ${m.pngBitsPerPixel}-bit PNG to full-colour PNG`);
  if (out.width !== m.width || out.height !== m.height) parts.push(`${parts.length ? 'resized' : 'Resized'} from ${m.width}×${m.height} to ${out.width}×${out.height}`);
  if (parts.length === 0) parts.push(`Re-encoded as ${to} (${formatBytes(m.bytes)} → ${formatBytes(out.bytes)})`);
  return `${parts.join(' and ')} to fit this effect.`;
}

/** "car.webp" → "car.jpg": the photo keeps its name, so results and downloads are named after it. */
export const renamed = (name: string, type: string) => `${name.replace(/\.[^.]+$/, '') || 'photo'}.${type === 'image/png' ? 'png' : 'jpg'}`;

function hasTransparency(data: Uint8ClampedArray): boolean {
  for (let i = 3; i < data.length; i += 4) if (data[i] < 255) return true;
  return false;
}

function makeCanvas(width: number, height: number) {
  if (typeof OffscreenCanvas !== 'undefined') {
    const c = new OffscreenCanvas(width, height);
    return { ctx: c.getContext('2d')!, toBlob: (type: string, quality?: number) => c.convertToBlob({ type, quality }) };
  }
  const c = document.createElement('canvas');
  c.width = width;
  c.height = height;
  return {
    ctx: c.getContext('2d')!,
    toBlob: (type: string, quality?: number) =>
      new Promise<Blob>((resolve, reject) => c.toBlob((b) => (b ? resolve(b) : reject(new Error('The browser could not encode the photo.'))), type, quality)),
  };
}

/**
 * Draws the photo at the planned size and encodes it: PNG where it has transparency or was lossless and still
 * fits; JPEG otherwise, lowering quality, then size, until the file is within the byte limit.
 */
export async function fitToLimits(file: File, m: Measured, limits: ImageLimits, plan: FitPlan): Promise<Fitted> {
  let { width, height } = plan;
  const lossless = m.format === 'png' || m.format === 'gif' || m.format === 'bmp';
  for (let attempt = 0; attempt < 8; attempt++) {
    const bitmap = await createImageBitmap(file, { resizeWidth: width, resizeHeight: height, resizeQuality: 'high' });
    const { ctx, toBlob } = makeCanvas(width, height);
    ctx.drawImage(bitmap, 0, 0);
    bitmap.close();
    const alpha = hasTransparency(ctx.getImageData(0, 0, width, height).data);
    const tries: [string, number | undefined][] = alpha
      ? [['image/png', undefined]]
      : [...(lossless ? [['image/png', undefined] as [string, undefined]] : []), ['image/jpeg', 0.92], ['image/jpeg', 0.85], ['image/jpeg', 0.75]];
    for (const [type, quality] of tries) {
      const blob = await toBlob(type, quality);
      if (blob.size <= limits.maxBytes) {
        const out = new File([blob], renamed(file.name, type), { type, lastModified: file.lastModified });
        return { file: out, note: fitNote(m, { width, height, type, bytes: blob.size }), width, height };
      }
    }
    // Still too heavy: a smaller picture, within the minimum side.
    const shrink = Math.max(0.7, limits.minSide / Math.min(width, height));
    if (shrink >= 1) break;
    width = Math.max(1, Math.floor(width * shrink));
    height = Math.max(1, Math.floor(height * shrink));
  }
  throw new Error(`This photo could not be brought under ${formatBytes(limits.maxBytes)} in the browser.`);
}
