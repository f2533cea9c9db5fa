/** The whole page when the engine does not answer: what is wrong, what to check, and a way to try again. */
import { Button } from '../components/ui/button.tsx';

export function EngineDown({ onRetry, checking }: { onRetry: () => void; checking: boolean }) {
  return (
    <main id="main" tabIndex={-1} className="grid flex-1 place-items-center px-6 outline-none">
      <section aria-labelledby="engine-down-title" className="max-w-lg space-y-4 text-center">
        <div className="mx-auto grid size-14 place-items-center rounded-full bg-red-50 text-red-700" aria-hidden="true">
          <svg className="size-7" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round">
            <path d="M3 3l18 18M8.5 8.5A5 5 0 0 0 7 12v3h10M12 4v2M4 12H2M22 12h-2M17 12a5 5 0 0 0-3-4.6" />
          </svg>
        </div>
        <h1 id="engine-down-title" className="text-xl font-semibold text-stone-900">
          The engine is not answering
        </h1>
        <p className="text-[15px] leading-6 text-stone-700">
          The studio is here, but the image engine behind it is stopped or unreachable, so no effect can run. Your gallery is safe in this browser and
          comes back with the engine.
        </p>
        <p className="text-[13px] leading-5 text-stone-600">
          Started with <code className="font-mono">npm start</code>? Check its terminal for errors. With <code className="font-mono">ATELIER_API_URL</code> set, check
          that the engine at that address is running. The studio checks again every few seconds.
        </p>
        <Button variant="primary" onClick={onRetry} disabled={checking}>
          {checking ? 'Checking…' : 'Try again now'}
        </Button>
      </section>
    </main>
  );
}
