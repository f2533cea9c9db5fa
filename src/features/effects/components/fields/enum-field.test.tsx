import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { hairLossLevels } from '../../../../../contract/endpoints/ai-hair-loss-simulation.ts';
import { enumField } from '../../../../../contract/fields.ts';
import { EnumField } from './enum-field.tsx';

// Every long list of the contract has a panel of its own today (beard presets, hair-loss levels), so the
// generated select is tested on a field built as the contract builds them.
describe('EnumField', () => {
  it('puts a long list in a select, empty until chosen when required', () => {
    const onChange = vi.fn();
    render(<EnumField id="level" field={enumField(hairLossLevels, 'Stage', '1 is the mildest.', { required: true })} value={undefined} onChange={onChange} describedBy="d" />);
    const select = screen.getByRole('combobox') as HTMLSelectElement;
    expect(select.value).toBe('');
    expect(select.options).toHaveLength(hairLossLevels.length + 1);
    expect(select.options[0].textContent).toBe('Choose…');
    fireEvent.change(select, { target: { value: 'man_3' } });
    expect(onChange).toHaveBeenCalledWith('man_3');
  });

  it('offers "not sent" first for an optional long list without a default', () => {
    render(<EnumField id="level" field={enumField(hairLossLevels, 'Stage', '')} value={undefined} onChange={() => {}} describedBy="d" />);
    expect((screen.getByRole('combobox') as HTMLSelectElement).options[0].textContent).toBe('Default (not sent)');
  });

  it('draws a few short values side by side', () => {
    render(<EnumField id="f" field={enumField(['a', 'b', 'c'] as const, 'F', '', { required: true })} value="b" onChange={() => {}} describedBy="d" />);
    expect(screen.queryByRole('combobox')).toBeNull();
    expect(screen.getByRole('radio', { name: 'b', checked: true })).toBeTruthy();
  });
});
