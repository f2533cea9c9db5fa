import type { IntField, NumberField } from '../../../../../contract/fields.ts';
import { RangeInput } from '../../../../components/ui/range-input.tsx';

export interface RangeFieldProps {
  id: string;
  field: IntField | NumberField;
  value: number | undefined;
  onChange: (value: number | undefined) => void;
  describedBy: string;
}

export function RangeField({ id, field, value, onChange, describedBy }: RangeFieldProps) {
  const step = field.kind === 'int' ? 1 : (field.max - field.min) / 100;
  return (
    <RangeInput
      id={id}
      label={field.label}
      min={field.min}
      max={field.max}
      step={step}
      value={value}
      onChange={(v) => onChange(v === undefined || field.kind === 'number' ? v : Math.round(v))}
      required={field.required}
      describedBy={describedBy}
    />
  );
}
