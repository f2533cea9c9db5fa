import type { CsvSetField } from '../../../../../contract/fields.ts';
import { ToggleChip } from '../../../../components/ui/toggle-chip.tsx';
import { useDevView } from '../../../../lib/dev-view.ts';

export interface ClassTogglesProps {
  field: CsvSetField;
  value: readonly string[];
  onChange: (value: string[]) => void;
}

/** One toggle per allowed value. A literal "None" value excludes the others (face attributes). */
export function ClassToggles({ field, value, onChange }: ClassTogglesProps) {
  // Plain words from the contract; the developer view shows the values sent.
  const dev = useDevView((s) => s.on);
  const toggle = (v: string, on: boolean) => {
    if (!on) return onChange(value.filter((x) => x !== v));
    if (v === 'None') return onChange(['None']);
    // Keep the contract's order so the sent list is stable.
    onChange(field.values.filter((x) => x !== 'None' && (x === v || value.includes(x))));
  };
  return (
    <div className="flex flex-wrap gap-1.5">
      {field.values.map((v) => (
        <ToggleChip key={v} pressed={value.includes(v)} onChange={(on) => toggle(v, on)}>
          {!dev && field.valueLabels?.[v] ? field.valueLabels[v] : v.replace(/_/g, ' ')}
        </ToggleChip>
      ))}
    </div>
  );
}
