import { useSyncExternalStore } from 'react';

const subscribe = (onChange: () => void) => {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
};

/** The effect shown is in the URL (#commodity-background-removal), so a reload or a shared link keeps it. */
export function useHashSlug(known: readonly string[], fallback: string): string {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash.slice(1), () => '');
  return known.includes(hash) ? hash : fallback;
}
