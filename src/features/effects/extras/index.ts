/**
 * Optional per-effect additions to a generated panel, keyed by endpoint slug (excalidraw's PanelComponent
 * idea). The generated fields stay the same; an extra only adds help around them, and a field override only
 * draws one field's control differently (same name, same value, same text sent).
 */
import type { ComponentType } from 'react';
import type { ExtraProps, FieldOverrideProps } from './types.ts';
import { ApparelSummary, OutModeChoice } from './apparel-options.tsx';
import { BeardPresetField } from './beard-presets.tsx';
import { CropPresets } from './crop-presets.tsx';
import { HairLossLevelStrip } from './hair-loss-levels.tsx';
import { LensColourField } from './lens-colours.tsx';
import { LipFaces } from './lip-faces.tsx';
import { RetouchSummary } from './retouch-summary.tsx';

export const extras: Partial<Record<string, ComponentType<ExtraProps>>> = {
  'apparel-background-removal': ApparelSummary,
  'image-cropping': CropPresets,
  'lips-color-changer': LipFaces,
  'smart-skin-advanced': RetouchSummary,
};

/** slug → field name → the control drawn instead of the generated one (inside the same labelled frame). */
export const fieldOverrides: Partial<Record<string, Partial<Record<string, ComponentType<FieldOverrideProps>>>>> = {
  'apparel-background-removal': { out_mode: OutModeChoice },
  'ai-colored-contacts': { name: LensColourField },
  'ai-beard-styling': { beard: BeardPresetField },
  'ai-hair-loss-simulation': { level: HairLossLevelStrip },
};
