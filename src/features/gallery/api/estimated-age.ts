/**
 * The face's estimated age beside a skin analysis's skin age (issue 34). The skin analysis answer carries the
 * skin age only, so the estimate is the face analyzer's age for the same photo, asked for once per gallery item
 * and matched to the analysed face by overlap.
 */
import { useQuery } from '@tanstack/react-query';
import { endpoints } from '../../../../contract/index.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { analyzerCopy } from '../../../lib/face-analyzer-copy.ts';
import type { Rect } from '../utils/crop-overlay.ts';
import { readFaceAnswer } from '../utils/face-analysis.ts';

/** The estimate, and whether it is the analyzer's top value standing for "that or more" (65+). */
export interface EstimatedAge { years: number; orMore: boolean }

const AGE_CAP = 65;

const overlap = (a: Rect, b: Rect) => {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x), h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  const inter = Math.max(0, w) * Math.max(0, h);
  return inter / Math.max(1e-9, a.width * a.height + b.width * b.height - inter);
};

/** The age of the face the analyzer finds where the skin analysis looked (the largest face without one). */
export async function estimateAge(photo: Blob, face: Rect | undefined): Promise<EstimatedAge | null> {
  // Decoded here where the browser can, to bring a photo larger than the analyzer takes within its limit.
  const copy = await analyzerCopy(photo, typeof createImageBitmap === 'function');
  const fd = new FormData();
  fd.append('image', copy.file, copy.file.name ?? 'photo.jpg');
  fd.append('max_face_num', '5');
  fd.append('face_attributes_type', 'Age');
  const { faces } = readFaceAnswer(await apiRequest<unknown>(endpoints.faceAnalyzer.path, { method: 'POST', body: fd }));
  const s = copy.scale;
  const target = face && { x: face.x * s, y: face.y * s, width: face.width * s, height: face.height * s };
  const best = target ? faces.map((f) => ({ f, o: overlap(f.rect, target) })).filter((c) => c.o > 0.1).sort((a, b) => b.o - a.o)[0]?.f : faces[0];
  const age = best?.attributes?.age;
  if (typeof age !== 'number' || !Number.isFinite(age)) return null;
  return { years: Math.round(age), orMore: age >= AGE_CAP };
}

export const useEstimatedAge = (responseKey: string, photo: Blob | undefined, face: Rect | undefined, enabled: boolean) =>
  useQuery({
    queryKey: ['estimated-age', responseKey],
    queryFn: () => estimateAge(photo!, face),
    enabled: enabled && !!photo,
    staleTime: Infinity,
    retry: false,
  });
