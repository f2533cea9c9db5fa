/** One contract field → one control, chosen by the field's kind. No panel is written by hand. */
import { useMemo, type ComponentType } from 'react';
import type { Endpoint } from '../../../../contract/endpoint.ts';
import type { Field } from '../../../../contract/fields.ts';
import { FieldFrame } from '../../../components/ui/field-frame.tsx';
import { useDevView } from '../../../lib/dev-view.ts';
import { raiseLimits } from '../../upload/utils/raised-limits.ts';
import { useKnownHealth } from '../api/get-health.ts';
import { Switch } from '../../../components/ui/switch.tsx';
import { fieldOverrides } from '../extras/index.ts';
import type { ImageInputProps } from '../types.ts';
import { asLipColors, asStrings, isFlag } from '../utils/form-values.ts';
import type { FieldValue } from '../utils/form-values.ts';
import { ClassToggles } from './fields/class-toggles.tsx';
import { EnumField } from './fields/enum-field.tsx';
import { RangeField } from './fields/range-field.tsx';
import { RgbaField } from './fields/rgba-field.tsx';
import { TextField } from './fields/text-field.tsx';

export interface FieldControlProps {
  endpoint: Endpoint;
  name: string;
  field: Field;
  value: FieldValue;
  onChange: (value: FieldValue) => void;
  onImageCheck: ImageInputProps['onCheck'];
  ImageInput: ComponentType<ImageInputProps>;
  onMany?: (files: File[]) => void;
}

/** "One of: Beard preset, Reference image" for fields of a oneOf group. */
function requirementOf(endpoint: Endpoint, field: Field): string | undefined {
  if (!field.oneOf) return undefined;
  const peers = Object.values(endpoint.fields).filter((f) => f.oneOf === field.oneOf);
  return peers.length > 1 ? `One of ${peers.length}` : undefined;
}

export function FieldControl({ endpoint, name, field, value, onChange, onImageCheck, ImageInput, onMany }: FieldControlProps) {
  const dev = useDevView((s) => s.on);
  const { maxSide, maxBytes } = useKnownHealth().data?.imageLimits ?? {};
  // One object while the numbers stay the same: the image input re-checks its photo when its limits change.
  const imageLimits = useMemo(
    () => (field.kind === 'image' ? raiseLimits(field.limits, { maxSide, maxBytes }) : undefined),
    [field, maxSide, maxBytes],
  );
  const id = `${endpoint.slug}-${name}`;
  // Plain words in the studio; the contract's technical description in the developer view.
  const help = field.help && !dev ? field.help : field.description;
  const descriptionId = `${id}-description`;
  const frame = {
    htmlFor: id,
    label: field.label,
    name,
    required: field.required,
    requirement: requirementOf(endpoint, field),
    description: help,
    descriptionId,
  };

  const Override = fieldOverrides[endpoint.slug]?.[name];
  if (Override) {
    return (
      <FieldFrame {...frame} asGroup>
        <Override id={id} field={field} value={value} onChange={onChange} describedBy={descriptionId} />
      </FieldFrame>
    );
  }

  switch (field.kind) {
    case 'image':
      return (
        <FieldFrame {...frame} asGroup>
          <ImageInput
            id={id}
            label={field.label}
            effectTitle={endpoint.title}
            limits={imageLimits ?? field.limits}
            required={field.required}
            file={value instanceof File ? value : undefined}
            onFile={onChange}
            onCheck={onImageCheck}
            describedBy={descriptionId}
            onMany={onMany}
          />
        </FieldFrame>
      );
    case 'enum':
      return (
        <FieldFrame {...frame}>
          <EnumField id={id} field={field} value={typeof value === 'string' ? value : undefined} onChange={onChange} describedBy={descriptionId} />
        </FieldFrame>
      );
    case 'int':
    case 'number':
      if (isFlag(field)) {
        return (
          <div className="flex items-start justify-between gap-4" data-field={name}>
            <div className="min-w-0">
              <label htmlFor={id} className="text-[13px] font-semibold text-stone-800">
                {field.label}
              </label>
              {dev && <code className="ml-2 font-mono text-[11px] text-stone-600">{name}</code>}
              <p id={descriptionId} className="mt-0.5 text-xs leading-5 text-stone-600">
                {help}
              </p>
            </div>
            <Switch id={id} label={field.label} checked={value === true} onChange={onChange} describedBy={descriptionId} />
          </div>
        );
      }
      return (
        <FieldFrame {...frame}>
          <RangeField id={id} field={field} value={typeof value === 'number' ? value : undefined} onChange={onChange} describedBy={descriptionId} />
        </FieldFrame>
      );
    case 'csv-set':
      return (
        <FieldFrame {...frame} asGroup>
          <ClassToggles field={field} value={asStrings(value)} onChange={onChange} />
        </FieldFrame>
      );
    case 'lip-colors':
      return (
        <FieldFrame {...frame} asGroup>
          <RgbaField field={field} value={asLipColors(value)} onChange={onChange} />
        </FieldFrame>
      );
    case 'text':
      return (
        <FieldFrame {...frame}>
          <TextField id={id} field={field} value={typeof value === 'string' ? value : ''} onChange={onChange} describedBy={descriptionId} />
        </FieldFrame>
      );
  }
}
