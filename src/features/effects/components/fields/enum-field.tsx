import type { EnumField as EnumSpec } from '../../../../../contract/fields.ts';
import { SegmentedControl } from '../../../../components/ui/segmented-control.tsx';
import { Select } from '../../../../components/ui/select.tsx';
import { useDevView } from '../../../../lib/dev-view.ts';

export interface EnumFieldProps {
  id: string;
  field: EnumSpec;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  describedBy: string;
}

/** Few short values read best side by side; long lists (beard presets, hair-loss stages) go in a select. */
const fitsSegments = (values: readonly string[]) => values.length <= 4 && values.join('').length <= 26;

export function EnumField({ id, field, value, onChange, describedBy }: EnumFieldProps) {
  const dev = useDevView((s) => s.on);
  // Optional enums without a default get an explicit "unset" choice: the engine's own default applies.
  const unsetLabel = field.oneOf ? 'None' : (field.unsetLabel ?? 'Default');
  // Plain words from the contract; the developer view shows the value sent.
  const labelOf = (v: string) => (dev || !field.valueLabels?.[v] ? v : field.valueLabels[v]);
  const optional = !field.required && field.default === undefined;
  if (fitsSegments(field.values)) {
    const options = [
      ...(optional ? [{ value: undefined as string | undefined, label: unsetLabel }] : []),
      ...field.values.map((v) => ({ value: v as string | undefined, label: labelOf(v) })),
    ];
    return <SegmentedControl label={field.label} options={options} value={value} onChange={onChange} describedBy={describedBy} />;
  }
  return (
    <Select id={id} value={value ?? ''} aria-describedby={describedBy} aria-required={field.required} onChange={(e) => onChange(e.target.value || undefined)}>
      {(optional || value === undefined) && <option value="">{optional ? `${unsetLabel} (not sent)` : 'Choose…'}</option>}
      {field.values.map((v) => (
        <option key={v} value={v}>
          {field.valueLabels?.[v] && !dev ? field.valueLabels[v] : humanize(v)}
        </option>
      ))}
    </Select>
  );
}

/** "man_3" → "Man 3", "FullBeardClassic" → "Full Beard Classic": the sent value stays as the contract has it. */
export const humanize = (v: string) =>
  v
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/^./, (c) => c.toUpperCase());
