import { useEffect, useState } from 'react';
import { getBlob } from '../stores/idb-storage.ts';
import { blankness } from '../utils/blank-image.ts';
import type { Blankness, ResultForm } from '../utils/blank-image.ts';
import { readPixels } from '../utils/read-pixels.ts';

// Stored results never change under their key, so each is decoded and counted once per page.
const checks = new Map<string, Promise<Blankness | undefined>>();

export function checkBlank(key: string, form: ResultForm): Promise<Blankness | undefined> {
  const id = `${form}:${key}`;
  let p = checks.get(id);
  if (!p) {
    p = getBlob(key)
      .then((blob) => (blob ? readPixels(blob) : undefined))
      .then((pixels) => (pixels ? blankness(pixels, form) : undefined))
      .catch(() => undefined);
    checks.set(id, p);
  }
  return p;
}

/** Whether the stored image under `key` is empty (see blank-image.ts); undefined while unknown or undecodable. */
export function useBlankCheck(key: string | undefined, form: ResultForm, enabled = true): Blankness | undefined {
  const [state, setState] = useState<{ id: string; value: Blankness | undefined }>();
  const id = key ? `${form}:${key}` : undefined;
  useEffect(() => {
    if (!key || !enabled) return;
    let live = true;
    void checkBlank(key, form).then((value) => live && setState({ id: `${form}:${key}`, value }));
    return () => {
      live = false;
    };
  }, [key, form, enabled]);
  return state && state.id === id ? state.value : undefined;
}
