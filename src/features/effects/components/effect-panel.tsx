/**
 * The panel of one effect, generated from its contract entry: a control per field, required marks and
 * defaults from the contract, the limits checked before upload, and one Run button that says why it is off.
 */
import { useIsMutating } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { ComponentType, FormEvent } from 'react';
import type { Endpoint } from '../../../../contract/endpoint.ts';
import { groups } from '../../../../contract/groups.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { Switch } from '../../../components/ui/switch.tsx';
import { useDevView } from '../../../lib/dev-view.ts';
import { useTouchScreen } from '../../../lib/use-touch-screen.ts';
import { formatSeconds } from '../../../lib/format.ts';
import { useRunEffect } from '../api/run-effect.ts';
import type { RunHooks, RunRecord } from '../api/run-effect.ts';
import { extras } from '../extras/index.ts';
import { engineSizeReason, fullSizeWay } from '../../../lib/full-size.ts';
import type { PreparedImage, Size } from '../../../lib/image-input.ts';
import { linkChain, linkOriginal, usePanelStore, usePanelValues } from '../stores/panel-store.ts';
import type { ImageInputProps } from '../types.ts';
import { blockingReason, serializeValues } from '../utils/form-values.ts';
import type { FieldValue, FormValues, Serialized } from '../utils/form-values.ts';
import { DeveloperView } from './developer-view.tsx';
import { FieldControl } from './field-control.tsx';
import { RunStatus } from './run-status.tsx';

export interface EffectPanelProps {
  endpoint: Endpoint;
  /** False when /healthz lists the effect as not_available. */
  available: boolean;
  /** The engine does not answer: nothing can run until it is back (the panel stays, to prepare the next run). */
  engineDown?: boolean;
  ImageInput: ComponentType<ImageInputProps>;
  onRecord?: (record: RunRecord) => void | Promise<void>;
  /** The app's run hooks: a placeholder in the gallery at start, completed or failed later. */
  hooks?: RunHooks;
  /** The measured time of this effect's recent runs here (median), shown instead of a promise like "Instant". */
  typicalMs?: number;
  /** Several photos dropped at once: the app runs them as a batch with this panel's options. */
  onBatch?: (endpoint: Endpoint, files: File[]) => void;
}

const dims = (s: Size) => `${s.width} × ${s.height}`;

/** What size the result comes back at, where the photo was made smaller to fit the engine. */
function SizeNote({ slug, values, prepared }: { slug: string; values: FormValues; prepared: PreparedImage | undefined }) {
  const resized = prepared && prepared.source === values.image ? prepared.resized : undefined;
  const params = { return_form: typeof values.return_form === 'string' ? values.return_form : undefined };
  const way = fullSizeWay(slug, params);
  if (!resized || !way) return null;
  if (way === 'engine') {
    return (
      <Notice tone="warning" role="status" title="The download is smaller than your photo">
        <span data-testid="size-note">
          The engine works on a {dims(resized.to)} copy of your {dims(resized.from)} photo, and {engineSizeReason(slug, params)}.
        </span>
      </Notice>
    );
  }
  return (
    <p className="text-[13px] leading-5 text-stone-700" data-testid="size-note">
      The engine works on the {dims(resized.to)} copy; the download comes back at your photo&rsquo;s own {dims(resized.from)}.
    </p>
  );
}

export function EffectPanel({ endpoint, available, engineDown, ImageInput, onRecord, hooks, typicalMs, onBatch }: EffectPanelProps) {
  const { slug } = endpoint;
  const values = usePanelValues(endpoint);
  const problems = usePanelStore((s) => s.imageProblems[slug]);
  const prepared = usePanelStore((s) => s.prepared[slug]);
  const lastRun = usePanelStore((s) => s.lastRun[slug]);
  const setValueIn = usePanelStore((s) => s.setValue);
  const setImageProblems = usePanelStore((s) => s.setImageProblems);
  const reset = usePanelStore((s) => s.reset);
  const runOnDrop = usePanelStore((s) => s.runOnDrop);
  const setRunOnDrop = usePanelStore((s) => s.setRunOnDrop);
  const autoRun = usePanelStore((s) => s.autoRun[slug]);
  const setAutoRun = usePanelStore((s) => s.setAutoRun);
  const dev = useDevView((s) => s.on);
  const touch = useTouchScreen();
  const cancelRef = useRef<() => void>(undefined);
  const run = useRunEffect(endpoint, {
    ...hooks,
    onStart: async (started) => {
      cancelRef.current = started.cancel;
      return hooks?.onStart?.(started);
    },
    onRecord: async (record) => {
      await hooks?.onRecord?.(record);
      await onRecord?.(record);
    },
  });
  // A batch started here: the single run's error (or "Done" line) spoke of another photo.
  const batchStarted = usePanelStore((s) => s.batchStarted[slug]);
  const resetRun = run.reset;
  useEffect(() => {
    if (batchStarted) resetRun();
  }, [batchStarted, resetRun]);
  // Also true when a run started before this panel was last left is still in flight.
  const running = useIsMutating({ mutationKey: ['run-effect', slug] }) > 0;

  const setValue = (field: string, value: FieldValue) => {
    if (endpoint.fields[field]?.kind === 'image') {
      setImageProblems(slug, field, undefined);
      run.reset();
      if (runOnDrop && value instanceof File) setAutoRun(slug, value);
    }
    setValueIn(endpoint, field, value);
  };

  const imageFields = Object.keys(endpoint.fields).filter((n) => endpoint.fields[n].kind === 'image' && values[n] instanceof File);
  const broken = imageFields.some((n) => (problems?.[n]?.length ?? 0) > 0);
  const checking = imageFields.some((n) => problems?.[n] === undefined);
  const reason = engineDown
    ? 'The engine is not answering; Run comes back with it.'
    : !available
    ? 'This effect is not available on the connected engine.'
    : running
      ? null
      : (blockingReason(endpoint, values) ??
        (broken ? 'The photo is outside this effect’s limits; see above.' : checking ? 'Checking the photo…' : null));

  /** What is sent: the form's values, with each photo replaced by its copy fitted to the limits, if any. */
  const toSend = (): Serialized => {
    const input = serializeValues(endpoint, values);
    for (const [name, file] of Object.entries(input.images)) {
      const p = prepared?.[name];
      if (p && p.source === file) {
        linkChain(file, p.file);
        linkOriginal(file, p.file);
        input.images[name] = p.file;
      }
    }
    return input;
  };
  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    if (reason || running) return;
    run.mutate(toSend());
  };

  // Ctrl/Cmd + Enter runs from anywhere on the page, not only with focus in the form.
  const submitRef = useRef(submit);
  submitRef.current = submit;
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key === 'Enter' && (e.metaKey || e.ctrlKey) && !e.defaultPrevented) {
        e.preventDefault();
        submitRef.current();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // Run on drop: the dropped photo runs as soon as it is checked (and fitted), if nothing else blocks it.
  useEffect(() => {
    if (!autoRun || running || checking) return;
    if (autoRun !== values.image) return setAutoRun(slug, undefined);
    setAutoRun(slug, undefined);
    if (!reason) run.mutate(toSend());
  });

  const group = groups.find((g) => g.id === endpoint.group);
  const Extra = extras[slug];

  return (
    <form onSubmit={submit} aria-labelledby={`${slug}-title`} className="flex h-full min-h-0 flex-col" noValidate>
      <div className="min-h-0 flex-1 space-y-6 overflow-y-auto px-6 pb-6 pt-6">
        <header className="space-y-2">
          <p className="text-[11px] font-semibold uppercase tracking-[0.08em] text-stone-600">{group?.title}</p>
          <div className="flex items-start justify-between gap-3">
            <h1 id={`${slug}-title`} className="text-xl font-semibold tracking-tight text-stone-900">
              {endpoint.title}
            </h1>
            <Button variant="ghost" size="sm" onClick={() => reset(endpoint)} title="Back to the starting options (keeps the photo)">
              Reset
            </Button>
          </div>
          <p className="text-sm leading-6 text-stone-600">{dev || !endpoint.plainSummary ? endpoint.summary : endpoint.plainSummary}</p>
          <div className="flex flex-wrap items-center gap-2 pt-0.5">
            {dev && (
              <code className="break-all rounded-md bg-stone-100 px-1.5 py-0.5 font-mono text-[11px] text-stone-700">
                {endpoint.method} {endpoint.path}
              </code>
            )}
            <Badge tone="neutral">
              <span data-testid="typical-time">
                {typicalMs !== undefined ? `Takes about ${formatSeconds(typicalMs)} here` : endpoint.mode === 'async' ? 'Runs in the background' : 'Not run here yet'}
              </span>
            </Badge>
            {dev && <Badge tone={endpoint.mode === 'async' ? 'accent' : 'neutral'}>{endpoint.mode === 'async' ? 'async task' : 'sync'}</Badge>}
          </div>
        </header>

        {!available && (
          <Notice tone="warning" title="Not available on this engine" role="status">
            The connected engine reports {endpoint.title.toLowerCase()} as not available, so it cannot be run here. The other effects are unaffected.
          </Notice>
        )}

        <div className="space-y-6">
          {Object.entries(endpoint.fields).map(([name, field]) => (
            <FieldControl
              key={name}
              endpoint={endpoint}
              name={name}
              field={field}
              value={values[name]}
              onChange={(v) => setValue(name, v)}
              onImageCheck={(p, prepared) => setImageProblems(slug, name, p, prepared)}
              ImageInput={ImageInput}
              onMany={onBatch && ((files) => onBatch(endpoint, files))}
            />
          ))}
          <SizeNote slug={slug} values={values} prepared={prepared?.image} />
          {Extra && <Extra endpoint={endpoint} values={values} setValue={setValue} />}
        </div>
        {dev && <DeveloperView endpoint={endpoint} input={serializeValues(endpoint, values)} />}
      </div>

      {/* On a phone the page scrolls as one: the bar stays at the bottom of the screen while the form is in view. */}
      <footer className="space-y-3 border-t border-stone-200 bg-white/95 px-6 py-4 max-lg:sticky max-lg:bottom-0 max-lg:z-20 max-lg:space-y-2 max-lg:py-3 max-lg:shadow-[0_-6px_16px_-8px_rgb(0_0_0/0.18)]" data-testid="action-bar">
        <RunStatus endpoint={endpoint} pending={running} error={run.error} lastRun={lastRun} onRetry={reason ? undefined : () => submit()} />
        <div className="flex items-center gap-3">
          <Button type="submit" variant="primary" size="lg" className="min-w-28" disabled={!!reason || running} aria-describedby={reason ? `${slug}-run-reason` : undefined} data-testid="run-button">
            {running ? 'Running…' : 'Run'}
          </Button>
          {running && (
            <Button variant="ghost" onClick={() => cancelRef.current?.()}>
              Cancel
            </Button>
          )}
          <p id={`${slug}-run-reason`} className="min-w-0 text-[13px] leading-5 text-stone-600">
            {reason ?? (running ? 'You can switch effects; the result lands in the gallery.' : touch ? null : 'Ctrl + Enter runs it from anywhere.')}
          </p>
        </div>
        <div className="flex items-center gap-2 text-[13px] text-stone-700">
          <Switch id={`${slug}-run-on-drop`} label="Run on drop" checked={runOnDrop} onChange={setRunOnDrop} />
          <label htmlFor={`${slug}-run-on-drop`}>Run as soon as a photo is added (dropped, pasted or picked)</label>
        </div>
      </footer>
    </form>
  );
}
