/**
 * Where a face effect's result should open: the face (with the hairline and chin around it), so that a lip,
 * eye or hairline edit is seen at once rather than at the 20-30 % a whole phone photo fits a phone at. The face
 * is the one the run was given (lip colour's face_rect), else the largest the face analyzer finds in the photo,
 * asked once per gallery item (kept for the session; a failure only leaves the result opening whole).
 */
import { useEffect, useState } from 'react';
import { endpoints } from '../../../../contract/index.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { analyzerCopy } from '../../../lib/face-analyzer-copy.ts';
import type { GalleryItem } from '../stores/gallery-store.ts';
import type { Rect } from '../utils/crop-overlay.ts';
import { isRect } from '../utils/crop-overlay.ts';
import { readFaceAnswer } from '../utils/face-analysis.ts';
import { galleryTraits } from '../components/per-effect.tsx';
import { useStoredBlob } from './use-stored-blob.ts';

/** The face with room for the hairline above and the chin below, in the photo's pixels. */
export const aroundFace = (f: Rect): Rect => ({ x: f.x - 0.25 * f.width, y: f.y - 0.45 * f.height, width: 1.5 * f.width, height: 1.7 * f.height });

/** The face the run named (lip colour: the first colour's face_rect), if any. */
function namedFace(item: GalleryItem): Rect | undefined {
  try {
    const infos: unknown = item.params.lip_color_infos ? JSON.parse(item.params.lip_color_infos) : undefined;
    const first = Array.isArray(infos) ? (infos[0] as { face_rect?: unknown } | undefined)?.face_rect : undefined;
    return isRect(first) ? first : undefined;
  } catch {
    return undefined;
  }
}

async function largestFace(photo: Blob): Promise<Rect | null> {
  const copy = await analyzerCopy(photo, typeof createImageBitmap === 'function');
  const fd = new FormData();
  fd.append('image', copy.file, copy.file.name ?? 'photo.jpg');
  fd.append('max_face_num', '1');
  const face = readFaceAnswer(await apiRequest<unknown>(endpoints.faceAnalyzer.path, { method: 'POST', body: fd })).faces[0]?.rect;
  if (!face) return null;
  const s = copy.scale;
  return { x: face.x / s, y: face.y / s, width: face.width / s, height: face.height / s };
}

/** item id → the face found (null: none, or the analyzer did not answer). */
const found = new Map<string, Promise<Rect | null>>();

/** The part of the photo a done face effect's result opens on; undefined for other effects, or until known. */
export function useFaceFocus(item: GalleryItem): Rect | undefined {
  const wanted = item.status === 'done' && galleryTraits[item.slug]?.faceFocus === true;
  const named = wanted ? namedFace(item) : undefined;
  const photo = useStoredBlob(wanted && !named ? item.before.key : undefined);
  const [face, setFace] = useState<{ id: string; rect: Rect | null }>();
  useEffect(() => {
    if (!photo) return;
    let live = true;
    if (!found.has(item.id)) found.set(item.id, largestFace(photo).catch(() => null));
    void found.get(item.id)!.then((rect) => live && setFace({ id: item.id, rect }));
    return () => {
      live = false;
    };
  }, [photo, item.id]);
  const rect = named ?? (face?.id === item.id ? face.rect : undefined);
  return rect ? aroundFace(rect) : undefined;
}
