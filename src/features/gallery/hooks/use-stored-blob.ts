import { useEffect, useState } from 'react';
import { useObjectUrl } from '../../../lib/use-object-url.ts';
import { getBlob } from '../stores/idb-storage.ts';

/** A Blob stored in IndexedDB, loaded when first shown; undefined while loading or when missing. */
export function useStoredBlob(key: string | undefined): Blob | undefined {
  const [state, setState] = useState<{ key: string; blob: Blob | undefined }>();
  useEffect(() => {
    if (!key) return;
    let live = true;
    void getBlob(key).then((blob) => live && setState({ key, blob }));
    return () => {
      live = false;
    };
  }, [key]);
  return state && state.key === key ? state.blob : undefined;
}

export const useStoredImageUrl = (key: string | undefined) => useObjectUrl(useStoredBlob(key));
