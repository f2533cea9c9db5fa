/**
 * Optional per-effect additions to a generated panel, keyed by endpoint slug (excalidraw's PanelComponent
 * idea). The generated fields stay the same; an extra only adds help around them, and a field override only
 * draws one field's control differently (same name, same value, same text sent).
 */
import type { ComponentType } from 'react';
import type { Endpoint } from '../../../../contract/endpoint.ts';
import type { Field } from '../../../../contract/fields.ts';
import type { FieldValue, FormValues } from '../utils/form-values.ts';
import { ApparelSummary, OutModeChoice } from './apparel-options.tsx';
import { CropPresets } from './crop-presets.tsx';

export interface ExtraProps {
  endpoint: Endpoint;
  values: FormValues;
  setValue: (field: string, value: FieldValue) => void;
}

export interface FieldOverrideProps {
  id: string;
  field: Field;
  value: FieldValue;
  onChange: (value: FieldValue) => void;
  describedBy: string;
}

export const extras: Partial<Record<string, ComponentType<ExtraProps>>> = {
  'apparel-background-removal': ApparelSummary,
  'image-cropping': CropPresets,
};

/** slug → field name → the control drawn instead of the generated one (inside the same labelled frame). */
export const fieldOverrides: Partial<Record<string, Partial<Record<string, ComponentType<FieldOverrideProps>>>>> = {
  'apparel-background-removal': { out_mode: OutModeChoice },
};
