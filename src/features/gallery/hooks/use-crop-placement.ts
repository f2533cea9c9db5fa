/** The placement of a trimmed result in its photo (utils/locate-crop.ts), found once per pair of images. */
import { useEffect, useState } from 'react';
import { getBlob } from '../stores/idb-storage.ts';
import { locateCrop } from '../utils/locate-crop.ts';
import type { Placement } from '../utils/locate-crop.ts';
import { readPixelsExact } from '../utils/read-pixels.ts';

export function useCropPlacement(beforeKey: string | undefined, afterKey: string | undefined): Placement | undefined {
  const [state, setState] = useState<{ key: string; placement?: Placement }>();
  const key = beforeKey && afterKey ? `${beforeKey}|${afterKey}` : undefined;
  useEffect(() => {
    if (!key || !beforeKey || !afterKey) return;
    let live = true;
    void (async () => {
      const [b, a] = await Promise.all([getBlob(beforeKey), getBlob(afterKey)]);
      if (!b || !a) return;
      const [photo, cutout] = await Promise.all([readPixelsExact(b), readPixelsExact(a)]);
      if (live && photo && cutout) setState({ key, placement: locateCrop(photo, cutout) });
    })().catch(() => undefined);
    return () => {
      live = false;
    };
  }, [key, beforeKey, afterKey]);
  return state && state.key === key ? state.placement : undefined;
}
