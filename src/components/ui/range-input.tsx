import { cn } from '../../lib/cn.ts';

export interface RangeInputProps {
  id: string;
  label: string;
  min: number;
  max: number;
  step: number;
  value: number | undefined;
  onChange: (value: number | undefined) => void;
  required?: boolean;
  describedBy?: string;
}

/** A slider and a number box bound to the same value; the box may be emptied when the value is optional. */
export function RangeInput({ id, label, min, max, step, value, onChange, required, describedBy }: RangeInputProps) {
  const clamp = (n: number) => Math.min(max, Math.max(min, n));
  const fill = value === undefined ? 0 : ((value - min) / (max - min || 1)) * 100;
  return (
    <div className="flex items-center gap-3">
      <input
        type="range"
        aria-label={label}
        aria-describedby={describedBy}
        min={min}
        max={max}
        step={step}
        value={value ?? min}
        onChange={(e) => onChange(Number(e.target.value))}
        className={cn('atelier-range min-w-0 flex-1', value === undefined && 'opacity-50')}
        style={{ ['--fill' as string]: `${fill}%` }}
      />
      <input
        id={id}
        type="number"
        inputMode="decimal"
        aria-label={`${label} value`}
        aria-required={required}
        aria-describedby={describedBy}
        min={min}
        max={max}
        step={step}
        value={value ?? ''}
        placeholder={required ? 'Required' : ''}
        onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))}
        onBlur={(e) => e.target.value !== '' && onChange(clamp(Number(e.target.value)))}
        className="h-9 w-24 rounded-lg bg-white px-2.5 text-right text-sm tabular-nums text-stone-900 ring-1 ring-inset ring-stone-300 focus:outline-none focus:ring-2 focus:ring-accent-500"
      />
    </div>
  );
}
