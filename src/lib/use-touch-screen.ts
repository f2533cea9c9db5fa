/** Whether the main pointer is a finger (a phone or tablet): there is nothing to drop from, and no keyboard. */
import { useSyncExternalStore } from 'react';

const QUERY = '(pointer: coarse)';
const media = () => (typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(QUERY) : undefined);

const subscribe = (onChange: () => void) => {
  const m = media();
  m?.addEventListener('change', onChange);
  return () => m?.removeEventListener('change', onChange);
};

export const useTouchScreen = (): boolean => useSyncExternalStore(subscribe, () => media()?.matches ?? false, () => false);
