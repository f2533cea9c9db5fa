/** Saving an opaque result as JPEG or WebP: decode, draw, encode in the browser. */
import { useEffect, useState } from 'react';
import { readPixels } from './read-pixels.ts';

export async function reencode(blob: Blob, type: string): Promise<Blob> {
  const bitmap = await createImageBitmap(blob);
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  canvas.getContext('2d')!.drawImage(bitmap, 0, 0);
  bitmap.close();
  return canvas.convertToBlob({ type, quality: 0.92 });
}

/** Whether the image has no transparent pixel (undefined while unknown or where it cannot be decoded). */
export function useOpaque(blob: Blob | undefined): boolean | undefined {
  const [state, setState] = useState<{ blob: Blob; opaque: boolean }>();
  useEffect(() => {
    if (!blob) return;
    let live = true;
    void readPixels(blob)
      .then((px) => {
        if (!live || !px) return;
        let opaque = true;
        for (let i = 3; i < px.data.length; i += 4) if (px.data[i] < 255) { opaque = false; break; }
        setState({ blob, opaque });
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [blob]);
  return state && state.blob === blob ? state.opaque : undefined;
}
