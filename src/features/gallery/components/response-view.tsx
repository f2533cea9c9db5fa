/** The raw JSON answer, read from IndexedDB when asked for; long base64 strings are shortened for reading. */
import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { formatBytes } from '../../../lib/format.ts';
import { useGalleryStore } from '../stores/gallery-store.ts';
import { getJson } from '../stores/idb-storage.ts';

const shorten = (_key: string, v: unknown) =>
  typeof v === 'string' && v.length > 300 ? `${v.slice(0, 48)}… (${formatBytes(v.length)} of text)` : v;

/**
 * The stored answer of an item, read again whenever the item changes state: a run's placeholder is stored with
 * no answer and completed later under the same key.
 */
export function useStoredJson(key: string | undefined) {
  const version = useGalleryStore((s) => {
    const it = key ? s.items.find((i) => i.responseKey === key) : undefined;
    return it ? `${it.status}:${it.completedAt ?? ''}:${it.taskId ?? ''}` : '';
  });
  const [state, setState] = useState<{ key: string; value: unknown }>();
  const id = key && `${key}|${version}`;
  useEffect(() => {
    if (!key || !id) return;
    let live = true;
    void getJson(key).then((value) => live && setState({ key: id, value }));
    return () => {
      live = false;
    };
  }, [key, id]);
  return state && state.key === id ? state : undefined;
}

export function ResponseView({ responseKey }: { responseKey: string }) {
  const loaded = useStoredJson(responseKey);
  const [copied, setCopied] = useState(false);
  if (!loaded) return <p className="text-xs text-stone-600">Loading…</p>;
  const text = JSON.stringify(loaded.value, shorten, 2);
  const copy = async () => {
    await navigator.clipboard?.writeText(JSON.stringify(loaded.value, null, 2));
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <div className="relative">
      <Button size="sm" className="absolute right-2 top-2" onClick={() => void copy()}>
        {copied ? 'Copied' : 'Copy'}
      </Button>
      <pre aria-label="Raw JSON response" className="overflow-auto whitespace-pre-wrap break-all rounded-xl bg-stone-900 p-4 pr-16 font-mono text-[12px] leading-5 text-stone-100">
        {text}
      </pre>
    </div>
  );
}
