/**
 * Optional per-effect additions to a generated panel, keyed by endpoint slug (excalidraw's PanelComponent
 * idea). The generated fields stay the same; an extra only adds help around them.
 */
import type { ComponentType } from 'react';
import type { Endpoint } from '../../../../contract/endpoint.ts';
import type { FieldValue, FormValues } from '../utils/form-values.ts';
import { CropPresets } from './crop-presets.tsx';

export interface ExtraProps {
  endpoint: Endpoint;
  values: FormValues;
  setValue: (field: string, value: FieldValue) => void;
}

export const extras: Partial<Record<string, ComponentType<ExtraProps>>> = {
  'image-cropping': CropPresets,
};
