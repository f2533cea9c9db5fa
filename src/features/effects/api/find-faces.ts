/**
 * The faces of a photo, for panels that pick a face by clicking it: the face analyzer's boxes (largest first,
 * up to 10) and the size they are measured in (orientation applied, as the browser shows the photo).
 */
import { useQuery } from '@tanstack/react-query';
import { endpoints } from '../../../../contract/index.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import type { FaceRect } from '../utils/form-values.ts';

export interface FoundFaces { width: number; height: number; faces: FaceRect[] }

interface AnalyzerAnswer { image_width: number; image_height: number; face_detail_infos: { face_rect: FaceRect }[] }

export async function findFaces(photo: File): Promise<FoundFaces> {
  const fd = new FormData();
  fd.append('image', photo, photo.name);
  fd.append('max_face_num', '10');
  const a = await apiRequest<AnalyzerAnswer>(endpoints.faceAnalyzer.path, { method: 'POST', body: fd });
  return { width: a.image_width, height: a.image_height, faces: a.face_detail_infos.map((f) => f.face_rect) };
}

export const useFaces = (photo: File | undefined) =>
  useQuery({
    queryKey: ['faces', photo?.name, photo?.size, photo?.lastModified],
    queryFn: () => findFaces(photo!),
    enabled: !!photo,
    staleTime: Infinity,
    retry: false,
  });
