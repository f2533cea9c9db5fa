/** The raw JSON answer, read from IndexedDB when asked for; long base64 strings are shortened for reading. */
import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { formatBytes } from '../../../lib/format.ts';
import { getJson } from '../stores/idb-storage.ts';

const shorten = (_key: string, v: unknown) =>
  typeof v === 'string' && v.length > 300 ? `${v.slice(0, 48)}… (${formatBytes(v.length)} of text)` : v;

export function useStoredJson(key: string | undefined) {
  const [state, setState] = useState<{ key: string; value: unknown }>();
  useEffect(() => {
    if (!key) return;
    let live = true;
    void getJson(key).then((value) => live && setState({ key, value }));
    return () => {
      live = false;
    };
  }, [key]);
  return state?.key === key ? state : undefined;
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
