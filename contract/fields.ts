/**
 * Field kinds of the contract. Every endpoint field is one of these plain objects, so the engine's
 * validation, the OpenAPI document and the studio's controls all read the same description.
 */
import type { ImageLimits } from './limits.ts';

interface FieldBase {
  /** Human label for the studio. */
  label: string;
  /** One sentence on what the field does. */
  description: string;
  /** Absent → MISSING_PARAMETERS. `oneOf` names a group where at least one member must be present. */
  required: boolean;
  oneOf?: string;
  /** Other multipart part names read as this field (e.g. `0.image`). */
  aliases?: readonly string[];
  /** The description in plain words for the studio, where `description` speaks in the API's names. */
  help?: string;
}

export interface ImageField extends FieldBase {
  kind: 'image';
  limits: ImageLimits;
  /** A field whose presence makes this one ignored: neither checked nor kept nor decoded (beard styling's template under a preset). */
  ignoredWith?: string;
}
/** Plain words for a field's values in the studio (the technical value is still what is sent and shown to developers). */
interface Labelled {
  valueLabels?: Readonly<Record<string, string>>;
  /** What leaving an optional field unset gives, in plain words ("Transparent background"). */
  unsetLabel?: string;
  help?: string;
}
export interface EnumField extends FieldBase, Labelled { kind: 'enum'; values: readonly string[]; default?: string }
export interface IntField extends FieldBase, Labelled { kind: 'int'; min: number; max: number; default?: number }
export interface NumberField extends FieldBase { kind: 'number'; min: number; max: number; default?: number }
export interface CsvSetField extends FieldBase { kind: 'csv-set'; values: readonly string[]; default?: readonly string[]; valueLabels?: Readonly<Record<string, string>> }
/** lips-color-changer: JSON array of {rgba, face_rect?}. */
export interface LipColorsField extends FieldBase { kind: 'lip-colors'; maxItems: number }
export interface TextField extends FieldBase { kind: 'text'; maxLength: number }

export type Field = ImageField | EnumField | IntField | NumberField | CsvSetField | LipColorsField | TextField;
export type FieldKind = Field['kind'];

type Opts = { required?: boolean; oneOf?: string; aliases?: readonly string[]; help?: string };

/**
 * A factory's `required` as a literal type (`true` or `false`, `Default` when not given), so an effect's
 * params type (contract/endpoint.ts Params) makes required fields non-optional.
 */
type RequiredOf<O extends Opts, Default extends boolean> = { required: O extends { required: true } ? true : O extends { required: false } ? false : Default };

export const imageField = <const O extends Opts & { ignoredWith?: string } = Record<never, never>>(limits: ImageLimits, label = 'Image', description = 'The photo to process.', o: O = {} as O) =>
  ({ kind: 'image', label, description, limits, required: o.required ?? true, oneOf: o.oneOf, aliases: o.aliases, ...(o.ignoredWith ? { ignoredWith: o.ignoredWith } : {}), ...(o.help ? { help: o.help } : {}) }) as ImageField & RequiredOf<O, true>;

export const enumField = <const O extends Opts & Labelled & { default?: string } = Record<never, never>>(values: readonly string[], label: string, description: string, o: O = {} as O) =>
  ({ kind: 'enum', label, description, values, required: o.required ?? false, default: o.default, oneOf: o.oneOf, ...labelled(o) }) as EnumField & RequiredOf<O, false>;

export const intField = <const O extends Opts & Labelled & { default?: number } = Record<never, never>>(min: number, max: number, label: string, description: string, o: O = {} as O) =>
  ({ kind: 'int', label, description, min, max, required: o.required ?? false, default: o.default, ...labelled(o) }) as IntField & RequiredOf<O, false>;

const labelled = (o: Labelled): Labelled => ({
  ...(o.valueLabels ? { valueLabels: o.valueLabels } : {}),
  ...(o.unsetLabel ? { unsetLabel: o.unsetLabel } : {}),
  ...(o.help ? { help: o.help } : {}),
});

/** A 0/1 switch, given as a number or a string. */
export const flagField = (label: string, description: string, help?: string) => intField(0, 1, label, description, { default: 0, ...(help ? { help } : {}) });

export const numberField = <const O extends Opts & { default?: number } = Record<never, never>>(min: number, max: number, label: string, description: string, o: O = {} as O) =>
  ({ kind: 'number', label, description, min, max, required: o.required ?? false, default: o.default }) as NumberField & RequiredOf<O, false>;

export const csvSetField = <const O extends Opts & { default?: readonly string[]; valueLabels?: Readonly<Record<string, string>> } = Record<never, never>>(values: readonly string[], label: string, description: string, o: O = {} as O) =>
  ({ kind: 'csv-set', label, description, values, required: o.required ?? false, default: o.default, ...(o.help ? { help: o.help } : {}), ...(o.valueLabels ? { valueLabels: o.valueLabels } : {}) }) as CsvSetField & RequiredOf<O, false>;

export const textField = <const O extends Opts = Record<never, never>>(maxLength: number, label: string, description: string, o: O = {} as O) =>
  ({ kind: 'text', label, description, maxLength, required: o.required ?? false, ...(o.help ? { help: o.help } : {}) }) as TextField & RequiredOf<O, false>;
