/**
 * The faces of a photo, for panels that pick a face by clicking it: the face analyzer's boxes (largest first,
 * up to 10) in the pixels of the copy the effect will be sent (orientation applied, as the browser shows it).
 * A copy the analyzer cannot take as it is (a WebP) goes to it re-encoded (lib/face-analyzer-copy.ts), and
 * its boxes come back in the copy's pixels.
 */
import { useQuery } from '@tanstack/react-query';
import { endpoints } from '../../../../contract/index.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { analyzerCopy } from '../../../lib/face-analyzer-copy.ts';
import type { FaceRect } from '../utils/form-values.ts';

export interface FoundFaces { width: number; height: number; faces: FaceRect[] }

interface AnalyzerAnswer { image_width: number; image_height: number; face_detail_infos: { face_rect: FaceRect }[] }

export async function findFaces(photo: File): Promise<FoundFaces> {
  const copy = await analyzerCopy(photo);
  const fd = new FormData();
  fd.append('image', copy.file, copy.file.name ?? photo.name);
  fd.append('max_face_num', '10');
  const a = await apiRequest<AnalyzerAnswer>(endpoints.faceAnalyzer.path, { method: 'POST', body: fd });
  if (copy.scale === 1) return { width: a.image_width, height: a.image_height, faces: a.face_detail_infos.map((f) => f.face_rect) };
  const back = (v: number) => Math.round(v / copy.scale);
  return {
    width: copy.width ?? back(a.image_width),
    height: copy.height ?? back(a.image_height),
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
