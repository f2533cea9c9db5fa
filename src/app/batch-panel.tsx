/** The batch queue: one row per photo with its state and time, and the finished results as one zip. */
import { useState } from 'react';
import { Button } from '../components/ui/button.tsx';
import { Spinner } from '../components/ui/spinner.tsx';
import { downloadZip } from '../features/gallery/components/gallery-grid.tsx';
import { useGalleryStore } from '../features/gallery/stores/gallery-store.ts';
import type { GalleryItem } from '../features/gallery/stores/gallery-store.ts';
import { formatSeconds } from '../lib/format.ts';
import { useNow } from '../lib/use-now.ts';
import { useBatch } from './batch.ts';
import type { BatchFile } from './batch.ts';

const words: Record<string, string> = { waiting: 'Waiting', fitting: 'Fitting to the limits', running: 'Running', done: 'Done', failed: 'Failed', stopped: 'Not sent: stopped' };

function stateOf(f: BatchFile, item: GalleryItem | undefined): string {
  if (item?.status === 'pending') return 'running';
  if (item?.status === 'failed') return 'failed';
  if (item?.status === 'done') return 'done';
  return f.state;
}

function Row({ f, item, now }: { f: BatchFile; item: GalleryItem | undefined; now: number }) {
  const state = stateOf(f, item);
  const end = item?.completedAt ?? f.finishedAt;
  const start = item?.createdAt ?? f.startedAt;
  return (
    <li className="flex items-center gap-2 text-[12.5px]" data-testid="batch-row" data-state={state}>
      <span className="w-4">{state === 'running' || state === 'fitting' ? <Spinner className="size-3.5 text-accent-600" /> : state === 'done' ? '✓' : state === 'failed' ? '✕' : state === 'stopped' ? '–' : '·'}</span>
      <span className="min-w-0 flex-1 truncate text-stone-900" title={f.name}>
        {f.name}
      </span>
      <span className="truncate text-stone-600" title={f.error ?? item?.error?.message ?? f.note}>
        {words[state]}
        {state === 'failed' && (f.error ?? item?.error?.message) ? `: ${f.error ?? item?.error?.message}` : ''}
      </span>
      <span className="w-12 text-right tabular-nums text-stone-600">{start ? formatSeconds((end ?? now) - start) : ''}</span>
    </li>
  );
}

export function BatchPanel() {
  const { files, title, clear, stop } = useBatch();
  const [open, setOpen] = useState(false);
  const items = useGalleryStore((s) => s.items);
  const byId = new Map(items.map((it) => [it.id, it]));
  const busy = files.some((f) => {
    const s = stateOf(f, f.itemId ? byId.get(f.itemId) : undefined);
    return s === 'waiting' || s === 'fitting' || s === 'running';
  });
  const now = useNow(busy);
  if (files.length === 0) return null;
  const done = files.map((f) => (f.itemId ? byId.get(f.itemId) : undefined)).filter((it): it is GalleryItem => it?.status === 'done');
  return (
    <section aria-label="Batch" className="rounded-xl bg-white p-3 shadow-card ring-1 ring-stone-200">
      <header className="mb-2 flex flex-wrap items-center gap-2">
        <h2 className="text-[13px] font-semibold text-stone-900">
          Batch · {title} · {done.length} of {files.length} done
        </h2>
        <div className="ml-auto flex gap-1.5">
          <Button size="sm" disabled={done.length === 0} onClick={() => void downloadZip(done, `atelier-batch-${done.length}.zip`)}>
            Download all (zip)
          </Button>
          {busy && (
            <Button size="sm" variant="ghost" onClick={stop} title="Send no more photos and abort the one being sent; results already accepted still arrive">
              Stop
            </Button>
          )}
          {!busy && (
            <Button size="sm" variant="ghost" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
              {open ? 'Hide files' : 'Show files'}
            </Button>
          )}
          <Button size="sm" variant="ghost" onClick={clear} disabled={busy}>
            Close
          </Button>
        </div>
      </header>
      {/* The queue while it runs; folded away once done, so the stage keeps its room. */}
      <ol className="max-h-32 space-y-1 overflow-y-auto" hidden={!busy && !open}>
        {files.map((f) => (
          <Row key={f.id} f={f} item={f.itemId ? byId.get(f.itemId) : undefined} now={now} />
        ))}
      </ol>
    </section>
  );
}
