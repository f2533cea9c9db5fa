/**
 * Explains, in words, how an image breaks an endpoint's limits (contract/limits.ts), before anything is sent.
 * Each sentence names the measured value and what the effect accepts.
 */
import { formatLabel } from '../../../../contract/limits.ts';
import type { ImageFormat, ImageLimits } from '../../../../contract/limits.ts';
import { formatBytes, inSentence } from '../../../lib/format.ts';
import { seenFormatLabel } from './sniff-image.ts';
import type { SeenFormat } from './sniff-image.ts';

export interface Measured {
  bytes: number;
  format: SeenFormat | null;
  width?: number;
  height?: number;
  pngBitsPerPixel?: number;
  /** The bytes claim a format but the browser could not decode them. */
  decodeFailed?: boolean;
}

const orList = (items: readonly string[]) =>
  items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;

export function limitProblems(m: Measured, limits: ImageLimits, effectTitle: string): string[] {
  const effect = inSentence(effectTitle);
  const formats = orList(limits.formats.map((f) => formatLabel[f]));
  const out: string[] = [];

  if (!m.format) {
    out.push(`This file is not a JPEG, PNG, BMP or WEBP image (judged from its first bytes, not its name); ${effect} accepts ${formats}.`);
  } else if (m.format === 'heic' && m.decodeFailed) {
    out.push(`This is a HEIC photo, which this browser cannot decode, so the studio cannot convert it. Export it as JPEG (on an iPhone: Settings › Camera › Formats › Most Compatible) and add that.`);
  } else if (!limits.formats.includes(m.format as ImageFormat)) {
    out.push(`This is a ${seenFormatLabel[m.format]} image; ${effect} accepts ${formats}.`);
  } else if (m.decodeFailed) {
    out.push(`This file starts like a ${seenFormatLabel[m.format]} image but could not be decoded; it may be damaged or truncated.`);
  }

  const bpp = m.pngBitsPerPixel;
  if (m.format === 'png' && bpp !== undefined && limits.pngRejectBitsPerPixel?.includes(bpp)) {
    const refused = orList(limits.pngRejectBitsPerPixel.map((n) => `${n}-bit`));
    out.push(`This PNG stores ${bpp} bits per pixel; ${effect} does not accept ${refused} PNGs. Save it as a 24- or 32-bit PNG, or as a JPEG.`);
  }

  if (m.bytes > limits.maxBytes) {
    out.push(`This file is ${formatBytes(m.bytes)}; ${effect} accepts files up to ${formatBytes(limits.maxBytes)}.`);
  }

  const { width: w, height: h } = m;
  if (w !== undefined && h !== undefined) {
    if (w > limits.maxSide || h > limits.maxSide) {
      out.push(`This photo is ${w}×${h} px; ${effect} accepts each side up to ${limits.maxSide} px.`);
    }
    if (w < limits.minSide || h < limits.minSide) {
      out.push(`This photo is ${w}×${h} px; ${effect} needs each side to be at least ${limits.minSide} px.`);
    }
  }
  return out;
}

/** "JPEG, PNG or BMP · up to 3 MB · sides up to 1999 px" for the hint under the dropzone. */
export function limitsHint(limits: ImageLimits): string {
  const sides = limits.minSide > 1 ? `sides ${limits.minSide}–${limits.maxSide} px` : `sides up to ${limits.maxSide} px`;
  return `${orList(limits.formats.map((f) => formatLabel[f]))} · up to ${formatBytes(limits.maxBytes)} · ${sides}`;
}
