/**
 * Hair loss simulation: `level` drawn as a strip of the 14 stages, a row for the man's series (Norwood:
 * receding temples, thinning crown, then bare on top) and one for the woman's (Ludwig: a widening parting,
 * the front line kept), 1 to 7 from mildest, each with a small head showing the stage. Picking one sends
 * the same text the generated select would (`man_3`).
 */
import type { KeyboardEvent } from 'react';
import { cn } from '../../../lib/cn.ts';
import type { FieldOverrideProps } from './types.ts';

export const HAIR_LOSS_SERIES = [
  { series: 'man', label: 'Man', hint: 'receding hairline' },
  { series: 'woman', label: 'Woman', hint: 'thinning on top' },
] as const;
const STAGES = [1, 2, 3, 4, 5, 6, 7] as const;

/**
 * A head seen from the front (the hair's outline over a face oval), with the bare scalp drawn in skin
 * colour: for a man the hairline rising at the temples then the middle, for a woman the parting widening.
 */
function StageHead({ series, stage }: { series: 'man' | 'woman'; stage: number }) {
  const t = (stage - 1) / 6;
  // Bare scalp: for a man an area rising from the forehead (deeper at the temples); for a woman a wedge at the parting.
  const bare = series === 'man'
    ? `M6 13 C 6 ${13 - 9 * Math.min(1, t * 1.6)}, ${10 - 1.5 * t} ${11 - 9 * t}, 12 ${11.5 - 8.5 * t} C ${14 + 1.5 * t} ${11 - 9 * t}, 18 ${13 - 9 * Math.min(1, t * 1.6)}, 18 13 Z`
    : `M${12 - 0.4 - 3.2 * t} 11 L12 ${3.2} L${12 + 0.4 + 3.2 * t} 11 Z`;
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className="size-7 shrink-0">
      <ellipse cx="12" cy="14" rx="6.2" ry="7.6" fill="#e9c2a6" />
      <path d="M5.6 14 C 5 6, 8.5 3, 12 3 C 15.5 3, 19 6, 18.4 14 L 17.6 14 C 17.6 11, 15 10.5, 12 10.8 C 9 10.5, 6.4 11, 6.4 14 Z" fill="#5b4334" />
      <path d={bare} fill="#e9c2a6" opacity={series === 'woman' ? Math.min(1, 0.45 + t) : 1} />
      {series === 'woman' && t > 0 && <ellipse cx="12" cy="6.5" rx={1 + 4 * t} ry={1.5 + 2 * t} fill="#e9c2a6" opacity={0.25 + 0.45 * t} />}
    </svg>
  );
}

export function HairLossLevelStrip({ id, field, value, onChange, describedBy }: FieldOverrideProps) {
  const current = typeof value === 'string' ? value : '';
  const all = HAIR_LOSS_SERIES.flatMap((s) => STAGES.map((n) => `${s.series}_${n}`));
  // Arrow keys move along the strip (and between the rows), as in a radio group.
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: 7, ArrowUp: -7 }[e.key];
    if (!step) return;
    e.preventDefault();
    const at = Math.max(0, all.indexOf(current));
    const next = all[Math.min(all.length - 1, Math.max(0, at + step))];
    onChange(next);
    e.currentTarget.querySelector<HTMLElement>(`[data-level="${next}"]`)?.focus();
  };
  return (
    <div id={id} role="radiogroup" aria-label={field.label} aria-describedby={describedBy} onKeyDown={onKeyDown} className="space-y-2">
      {HAIR_LOSS_SERIES.map((s) => (
        <div key={s.series} role="group" aria-label={`${s.label}: ${s.hint}`} className="space-y-1">
          <div className="flex items-baseline justify-between text-xs">
            <span className="font-medium text-stone-700">{s.label}</span>
            <span className="text-stone-500">{s.hint}, 1 mildest</span>
          </div>
          <div className="grid grid-cols-7 gap-1">
            {STAGES.map((n) => {
              const level = `${s.series}_${n}`;
              const active = current === level;
              return (
                <button
                  key={level}
                  type="button"
                  role="radio"
                  data-level={level}
                  aria-checked={active}
                  aria-label={`${s.label} ${n}`}
                  tabIndex={active || (!current && level === all[0]) ? 0 : -1}
                  onClick={() => onChange(level)}
                  className={cn(
                    'flex flex-col items-center gap-0.5 rounded-lg py-1 text-[11px] tabular-nums ring-1 ring-inset transition',
                    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-500',
                    active ? 'bg-accent-50 text-accent-700 ring-accent-300' : 'bg-white text-stone-600 ring-stone-200 hover:ring-stone-300',
                  )}
                >
                  <StageHead series={s.series} stage={n} />
                  {n}
                </button>
              );
            })}
          </div>
        </div>
      ))}
    </div>
  );
}
