/**
 * Beard styling: the 24 presets as a picker of small drawings, each the preset's own shape (generated from
 * the engine's presets, beard-previews.ts) on a canonical face. Choosing one fills `beard`; choosing it
 * again clears it, so a template photo (the generated image field below) can be used instead.
 */
import { cn } from '../../../lib/cn.ts';
import { BEARD_PREVIEWS, FACE_PATHS } from './beard-previews.ts';
import type { FieldOverrideProps } from './types.ts';

/** "DucktailBeardPointed" → "Ducktail beard pointed". */
export const presetLabel = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/ ([A-Z])/g, (_, c: string) => ` ${c.toLowerCase()}`);

/** The lower two thirds of the canonical face and the neck below it (SVG units: the face is 100 wide). */
const VIEW = '-6 24 112 100';

export function BeardPreview({ name }: { name: string }) {
  return (
    <svg viewBox={VIEW} aria-hidden="true" className="h-14 w-full">
      <path d={FACE_PATHS.outline} fill="#f1d9c6" stroke="#b08e78" strokeWidth="1.2" />
      <path d={FACE_PATHS.brows} fill="#7a6656" />
      <path d={FACE_PATHS.eyes} fill="#fff" stroke="#6b5a4d" strokeWidth="0.8" />
      <path d={FACE_PATHS.nose} fill="none" stroke="#b08e78" strokeWidth="1.2" strokeLinecap="round" />
      <path d={FACE_PATHS.lips} fill="#c98579" />
      {(BEARD_PREVIEWS[name] ?? []).map((d, i) => <path key={i} d={d} fill="#3b2a20" fillOpacity="0.88" stroke="#2a1d16" strokeWidth="0.6" strokeLinejoin="round" />)}
    </svg>
  );
}

export function BeardPresetField({ id, field, value, onChange, describedBy }: FieldOverrideProps) {
  const names = field.kind === 'enum' ? field.values : [];
  const chosen = typeof value === 'string' ? value : '';
  return (
    <div id={id} role="group" aria-label="Beard presets" aria-describedby={describedBy} className="grid grid-cols-3 gap-1.5 sm:grid-cols-4">
      {names.map((name) => {
        const active = chosen === name;
        return (
          <button
            key={name}
            type="button"
            aria-pressed={active}
            onClick={() => onChange(active ? '' : name)}
            className={cn(
              'flex flex-col items-center gap-1 rounded-lg px-1.5 pb-1.5 pt-1 text-center text-[11px] leading-4 ring-1 ring-inset transition',
              'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-500',
              active ? 'bg-accent-50 text-accent-700 ring-accent-300' : 'bg-white text-stone-700 ring-stone-200 hover:ring-stone-300',
            )}
          >
            <BeardPreview name={name} />
            <span>{presetLabel(name)}</span>
          </button>
        );
      })}
    </div>
  );
}
