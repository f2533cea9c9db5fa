/**
 * The panel of one effect, generated from its contract entry: a control per field, required marks and
 * defaults from the contract, the limits checked before upload, and one Run button that says why it is off.
 */
import { useIsMutating } from '@tanstack/react-query';
import type { ComponentType, FormEvent, KeyboardEvent } from 'react';
import type { Endpoint } from '../../../../contract/endpoint.ts';
import { groups } from '../../../../contract/groups.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { useRunEffect } from '../api/run-effect.ts';
import type { RunRecord } from '../api/run-effect.ts';
import { extras } from '../extras/index.ts';
import { usePanelStore, usePanelValues } from '../stores/panel-store.ts';
import type { ImageInputProps } from '../types.ts';
import { blockingReason, serializeValues } from '../utils/form-values.ts';
import type { FieldValue } from '../utils/form-values.ts';
import { FieldControl } from './field-control.tsx';
import { RunStatus } from './run-status.tsx';

export interface EffectPanelProps {
  endpoint: Endpoint;
  /** False when /healthz lists the effect as not_available. */
  available: boolean;
  ImageInput: ComponentType<ImageInputProps>;
  onRecord?: (record: RunRecord) => void | Promise<void>;
}

export function EffectPanel({ endpoint, available, ImageInput, onRecord }: EffectPanelProps) {
  const { slug } = endpoint;
  const values = usePanelValues(endpoint);
  const problems = usePanelStore((s) => s.imageProblems[slug]);
  const lastRun = usePanelStore((s) => s.lastRun[slug]);
  const setValueIn = usePanelStore((s) => s.setValue);
  const setImageProblems = usePanelStore((s) => s.setImageProblems);
  const reset = usePanelStore((s) => s.reset);
  const run = useRunEffect(endpoint, onRecord);
  // Also true when a run started before this panel was last left is still in flight.
  const running = useIsMutating({ mutationKey: ['run-effect', slug] }) > 0;

  const setValue = (field: string, value: FieldValue) => {
    if (endpoint.fields[field]?.kind === 'image') setImageProblems(slug, field, undefined);
    setValueIn(endpoint, field, value);
  };

  const imageFields = Object.keys(endpoint.fields).filter((n) => endpoint.fields[n].kind === 'image' && values[n] instanceof File);
  const broken = imageFields.some((n) => (problems?.[n]?.length ?? 0) > 0);
  const checking = imageFields.some((n) => problems?.[n] === undefined);
  const reason = !available
    ? 'This effect is not available on the connected engine.'
    : running
      ? null
      : (blockingReason(endpoint, values) ??
        (broken ? 'The photo is outside this effect’s limits; see above.' : checking ? 'Checking the photo…' : null));

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    if (reason || running) return;
    run.mutate(serializeValues(endpoint, values));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLFormElement>) => {
    if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) submit();
  };

  const group = groups.find((g) => g.id === endpoint.group);
  const Extra = extras[slug];

  return (
    <form onSubmit={submit} onKeyDown={onKeyDown} aria-labelledby={`${slug}-title`} className="flex h-full min-h-0 flex-col" noValidate>
      <div className="min-h-0 flex-1 space-y-6 overflow-y-auto px-6 pb-6 pt-6">
        <header className="space-y-2">
          <p className="text-[11px] font-semibold uppercase tracking-[0.08em] text-stone-400">{group?.title}</p>
          <div className="flex items-start justify-between gap-3">
            <h1 id={`${slug}-title`} className="text-xl font-semibold tracking-tight text-stone-900">
              {endpoint.title}
            </h1>
            <Button variant="ghost" size="sm" onClick={() => reset(endpoint)} title="Back to the contract's defaults (keeps the photo)">
              Reset
            </Button>
          </div>
          <p className="text-sm leading-6 text-stone-600">{endpoint.summary}</p>
          <div className="flex flex-wrap items-center gap-2 pt-0.5">
            <code className="break-all rounded-md bg-stone-100 px-1.5 py-0.5 font-mono text-[11px] text-stone-600">
              {endpoint.method} {endpoint.path}
            </code>
            <Badge tone={endpoint.mode === 'async' ? 'accent' : 'neutral'}>{endpoint.mode === 'async' ? 'Async task' : 'Instant'}</Badge>
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
              onImageCheck={(p) => setImageProblems(slug, name, p)}
              ImageInput={ImageInput}
            />
          ))}
          {Extra && <Extra endpoint={endpoint} values={values} setValue={setValue} />}
        </div>
      </div>

      <footer className="space-y-3 border-t border-stone-200 bg-white/80 px-6 py-4 backdrop-blur">
        <RunStatus endpoint={endpoint} pending={running} error={run.error} lastRun={lastRun} />
        <div className="flex items-center gap-3">
          <Button type="submit" variant="primary" size="lg" className="min-w-28" disabled={!!reason || running} aria-describedby={reason ? `${slug}-run-reason` : undefined} data-testid="run-button">
            {running ? 'Running…' : 'Run'}
          </Button>
          <p id={`${slug}-run-reason`} className="min-w-0 text-[13px] leading-5 text-stone-500">
            {reason ?? (running ? 'You can switch effects; the result lands in the gallery.' : <span className="text-stone-400">Ctrl + Enter runs it too.</span>)}
          </p>
        </div>
      </footer>
    </form>
  );
}
