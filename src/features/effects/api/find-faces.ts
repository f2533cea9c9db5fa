/**
 * The faces of a photo, for panels that pick a face by clicking it: the face analyzer's boxes (largest first,
 * up to 10) in the pixels of the copy the effect will be sent (orientation applied, as the browser shows it).
 * The analyzer takes fewer formats than some effects (no WebP): such a copy is re-encoded for it here, at the
 * same size, so its boxes are the effect's.
 */
import { useQuery } from '@tanstack/react-query';
import { endpoints } from '../../../../contract/index.ts';
import type { ImageLimits } from '../../../../contract/limits.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import type { FaceRect } from '../utils/form-values.ts';

export interface FoundFaces { width: number; height: number; faces: FaceRect[] }

interface AnalyzerAnswer { image_width: number; image_height: number; face_detail_infos: { face_rect: FaceRect }[] }

const analyzerLimits: ImageLimits = endpoints.faceAnalyzer.fields.image.limits;
const mimeOf: Record<string, string> = { jpeg: 'image/jpeg', png: 'image/png', bmp: 'image/bmp', webp: 'image/webp' };

/** Whether the analyzer takes this file's format as it is (judged by its type, as the browser named it). */
export const analyzerTakes = (photo: Blob): boolean => analyzerLimits.formats.some((f) => mimeOf[f] === photo.type);

/** A JPEG copy of the photo at its own size (or within the analyzer's side limit), and the scale applied. */
async function analyzerCopy(photo: File): Promise<{ file: File; scale: number; width: number; height: number }> {
  const bitmap = await createImageBitmap(photo);
  const { width: w, height: h } = bitmap;
  const fit = Math.min(1, analyzerLimits.maxSide / Math.max(w, h));
  const width = Math.max(1, Math.floor(w * fit)), height = Math.max(1, Math.floor(h * fit));
  const canvas = new OffscreenCanvas(width, height);
  canvas.getContext('2d')!.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.92 });
  return { file: new File([blob], `${photo.name.replace(/\.[^.]+$/, '') || 'photo'}.jpg`, { type: 'image/jpeg' }), scale: width / w, width: w, height: h };
}

export async function findFaces(photo: File): Promise<FoundFaces> {
  const copy = analyzerTakes(photo) ? undefined : await analyzerCopy(photo);
  const fd = new FormData();
  const file = copy?.file ?? photo;
  fd.append('image', file, file.name);
  fd.append('max_face_num', '10');
  const a = await apiRequest<AnalyzerAnswer>(endpoints.faceAnalyzer.path, { method: 'POST', body: fd });
  if (!copy || copy.scale === 1) return { width: a.image_width, height: a.image_height, faces: a.face_detail_infos.map((f) => f.face_rect) };
  const back = (v: number) => Math.round(v / copy.scale);
  return {
    width: copy.width,
    height: copy.height,
    faces: a.face_detail_infos.map(({ face_rect: r }) => ({ x: back(r.x), y: back(r.y), width: back(r.width), height: back(r.height) })),
  };
}

export const useFaces = (photo: File | undefined) =>
  useQuery({
    queryKey: ['faces', photo?.name, photo?.size, photo?.lastModified, photo?.type],
    queryFn: () => findFaces(photo!),
    enabled: !!photo,
    staleTime: Infinity,
    retry: false,
  });
