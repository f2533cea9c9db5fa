/**
 * Finding the face on one shared age/gender or emotion chip, for scripts/quality/face-attributes.ts and
 * scripts/quality/face-attributes-cache.ts, so both measure the very same faces.
 */
import sharp from 'sharp';
import { detectFaces, type Face, type HumanLike, type RasterImage } from '../../engine/for-scripts.ts';

/** Chips smaller than this (px) are upscaled for a second detection try when none is found as they are. */
export const SMALL_CHIP = 128;

export type Found = 'as-is' | 'upscaled' | 'none';

export async function findChipFace(human: HumanLike, image: RasterImage): Promise<{ face?: Face; found: Found }> {
  const faces = await detectFaces(human, image);
  if (faces.length) return { face: faces[0], found: 'as-is' };
  if (Math.min(image.width, image.height) >= SMALL_CHIP) return { found: 'none' };
  // Upscale (Lanczos) so the face is well above the detector's floor, then map the face back.
  const k = Math.ceil(192 / Math.min(image.width, image.height));
  const { data, info } = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } })
    .resize(image.width * k, image.height * k, { kernel: 'lanczos3' }).raw().toBuffer({ resolveWithObject: true });
  const up = await detectFaces(human, { data, width: info.width, height: info.height, channels: info.channels as 3 | 4 });
  if (!up.length) return { found: 'none' };
  const f = up[0];
  const face: Face = {
    ...f,
    box: { x0: f.box.x0 / k, y0: f.box.y0 / k, w: f.box.w / k, h: f.box.h / k },
    ...(f.mesh ? { mesh: f.mesh.map(([x, y, z]) => [x / k, y / k, z / k] as [number, number, number]) } : {}),
  };
  return { face, found: 'upscaled' };
}
