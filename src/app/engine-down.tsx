/**
 * Banners over the studio when the engine cannot do everything: stopped or unreachable (nothing can run, the
 * gallery stays browsable and downloadable from this browser), or its disk full (background tasks wait).
 */
import { Button } from '../components/ui/button.tsx';

export function EngineDownBanner({ onRetry, checking }: { onRetry: () => void; checking: boolean }) {
  return (
    <section aria-labelledby="engine-down-title" role="alert" className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-red-200 bg-red-50 px-5 py-2.5 text-red-900">
      <div className="min-w-0 flex-1 basis-72">
        <h2 id="engine-down-title" className="text-[14px] font-semibold">
          The engine is not answering
        </h2>
        <p className="text-[13px] leading-5">
          No effect can run until it is back; the studio checks again every few seconds. Your gallery is kept in this browser: browse and download
          it as usual. Background tasks carry on once the engine returns.
        </p>
        <p className="text-[12px] leading-5 text-red-800">
          Started with <code className="font-mono">npm start</code>? Check its terminal for errors. With <code className="font-mono">ATELIER_API_URL</code> set, check
          that the engine at that address is running.
        </p>
      </div>
      <Button size="sm" onClick={onRetry} disabled={checking}>
        {checking ? 'Checking…' : 'Try again now'}
      </Button>
    </section>
  );
}

export function StorageFullBanner() {
  return (
    <section aria-labelledby="storage-full-title" role="status" className="border-b border-amber-200 bg-amber-50 px-5 py-2.5 text-amber-900">
      <h2 id="storage-full-title" className="text-[14px] font-semibold">
        The engine’s disk is full
      </h2>
      <p className="text-[13px] leading-5">
        Effects that answer at once still work, but background effects are refused and queued ones wait until space is freed on the engine’s
        machine. Your gallery, kept in this browser, is not affected.
      </p>
    </section>
  );
}
