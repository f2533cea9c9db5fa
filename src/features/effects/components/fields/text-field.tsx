import type { TextField as TextSpec } from '../../../../../contract/fields.ts';

export interface TextFieldProps {
  id: string;
  field: TextSpec;
  value: string;
  onChange: (value: string) => void;
  describedBy: string;
}

export function TextField({ id, field, value, onChange, describedBy }: TextFieldProps) {
  const long = field.maxLength > 200;
  const common = {
    id,
    value,
    maxLength: field.maxLength,
    'aria-describedby': describedBy,
    'aria-required': field.required,
    className:
      'w-full rounded-lg bg-white px-3 py-2 text-sm text-stone-900 ring-1 ring-inset ring-stone-300 placeholder:text-stone-500 focus:outline-none focus:ring-2 focus:ring-accent-500',
  };
  return long ? (
    <textarea {...common} rows={3} onChange={(e) => onChange(e.target.value)} />
  ) : (
    <input {...common} type="text" onChange={(e) => onChange(e.target.value)} />
  );
}
