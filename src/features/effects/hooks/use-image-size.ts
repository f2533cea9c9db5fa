import { useEffect, useState } from 'react';

/** The decoded size of a photo (EXIF orientation applied, as the engine applies it); undefined until known. */
export function useImageSize(file: Blob | undefined): { width: number; height: number } | undefined {
  const [state, setState] = useState<{ file: Blob; width: number; height: number }>();
  useEffect(() => {
    if (!file || typeof createImageBitmap !== 'function') return;
    let live = true;
    createImageBitmap(file)
      .then((bitmap) => {
        if (live) setState({ file, width: bitmap.width, height: bitmap.height });
        bitmap.close();
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [file]);
  return state && state.file === file ? { width: state.width, height: state.height } : undefined;
}
