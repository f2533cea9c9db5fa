/**
 * The photo at most 512 px on its long side, as RGB and as luma: the guide the person matte and the hair
 * mask are both filtered with when they are kept at that size. Made once per photo by a caller that
 * needs both (part-inputs.ts), it spares the second resize and luma plane.
 */
import sharp from 'sharp';
import type { RasterImage } from '../../image/raster.ts';
import { lumaPlane } from '../../image/luma.ts';

export const WORK_SIDE = 512;

export interface WorkGuide { rgb: Buffer; luma: Float32Array; width: number; height: number; channels: number }

/** The work size of a photo: at most WORK_SIDE px on its long side, never enlarged. */
export function workSize(image: { width: number; height: number }): { width: number; height: number } {
  const k = Math.min(1, WORK_SIDE / Math.max(image.width, image.height));
  return { width: Math.max(1, Math.round(image.width * k)), height: Math.max(1, Math.round(image.height * k)) };
}

/** The photo resized to its work size (sharp's default kernel, stretched to fill) and that copy's luma. */
export async function workGuide(image: RasterImage): Promise<WorkGuide> {
  const { width, height } = workSize(image);
  const rgb = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } })
    .resize(width, height, { fit: 'fill' }).raw().toBuffer();
  return { rgb, luma: lumaPlane(rgb, width, height, image.channels), width, height, channels: image.channels };
}
