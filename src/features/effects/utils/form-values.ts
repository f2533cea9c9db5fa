/**
 * The panel's values, derived from the contract: initial values from the defaults, the text sent for each
 * field, and the reason (if any) the Run button is disabled. Validation reuses contract/validate.ts.
 */
import type { Endpoint } from '../../../../contract/endpoint.ts';
import type { Field } from '../../../../contract/fields.ts';
import { CodedError } from '../../../../contract/errors.ts';
import { validateFields } from '../../../../contract/validate.ts';

export interface FaceRect { x: number; y: number; width: number; height: number }

export interface LipColor {
  /** #rrggbb */
  color: string;
  /** 0..100, percent */
  opacity: number;
  /** The face this colour is for (sent as face_rect); without it the engine colours the largest face. */
  face?: FaceRect;
}

export type FieldValue = string | number | boolean | readonly string[] | LipColor[] | File | undefined;
export type FormValues = Record<string, FieldValue>;

export const asStrings = (v: FieldValue): string[] =>
  Array.isArray(v) ? (v as readonly unknown[]).filter((x): x is string => typeof x === 'string') : [];
export const asLipColors = (v: FieldValue): LipColor[] =>
  Array.isArray(v) ? (v as readonly unknown[]).filter((x): x is LipColor => typeof x === 'object' && x !== null && 'color' in x) : [];

/** An int field that only takes 0 or 1 is shown as a switch. */
export const isFlag = (f: Field): boolean => f.kind === 'int' && f.min === 0 && f.max === 1;

/** A calm red at half opacity: lip colour is required, so the panel starts runnable. */
export const defaultLipColor: LipColor = { color: '#b3263e', opacity: 50 };

export function initialValue(f: Field): FieldValue {
  switch (f.kind) {
    case 'image': return undefined;
    case 'enum': return f.default;
    case 'int':
      if (isFlag(f)) return (f.default ?? 0) === 1;
      return f.default;
    case 'number': return f.default;
    case 'csv-set': return f.default ? [...f.default] : [];
    case 'lip-colors': return [{ ...defaultLipColor }];
    case 'text': return '';
  }
}

export const initialValues = (endpoint: Endpoint): FormValues =>
  Object.fromEntries(Object.entries(endpoint.fields).map(([name, f]) => [name, initialValue(f)]));

const hexToRgb = (hex: string) => {
  const n = Number.parseInt(hex.replace('#', ''), 16);
  return { r: (n >> 16) & 255, g: (n >> 8) & 255, b: n & 255 };
};

export const lipColorsJson = (list: readonly LipColor[]): string =>
  JSON.stringify(list.map((c) => ({ rgba: { ...hexToRgb(c.color), a: Math.round(c.opacity) }, ...(c.face ? { face_rect: c.face } : {}) })));

/** The text of one non-image field as sent in the form, or undefined to leave it out. */
export function serializeValue(f: Field, v: FieldValue): string | undefined {
  if (v === undefined || v instanceof File) return undefined;
  switch (f.kind) {
    case 'int':
      if (isFlag(f)) return v === true || v === 1 ? '1' : '0';
      return typeof v === 'number' && Number.isFinite(v) ? String(Math.round(v)) : undefined;
    case 'number':
      return typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined;
    case 'csv-set':
      return asStrings(v).length > 0 ? asStrings(v).join(',') : undefined;
    case 'lip-colors':
      return asLipColors(v).length > 0 ? lipColorsJson(asLipColors(v)) : undefined;
    case 'enum':
    case 'text': {
      const s = String(v).trim();
      return s === '' ? undefined : s;
    }
    case 'image':
      return undefined;
  }
}

export interface Serialized {
  /** Field name → text sent (only fields that are set). */
  params: Record<string, string>;
  /** Image field name → file. */
  images: Record<string, File>;
}

export function serializeValues(endpoint: Endpoint, values: FormValues): Serialized {
  const params: Record<string, string> = {};
  const images: Record<string, File> = {};
  for (const [name, f] of Object.entries(endpoint.fields)) {
    const v = values[name];
    if (f.kind === 'image') {
      if (v instanceof File) images[name] = v;
      continue;
    }
    const s = serializeValue(f, v);
    if (s !== undefined) params[name] = s;
  }
  return { params, images };
}

export function buildFormData(s: Serialized): FormData {
  const fd = new FormData();
  for (const [name, file] of Object.entries(s.images)) fd.append(name, file, file.name);
  for (const [name, text] of Object.entries(s.params)) fd.append(name, text);
  return fd;
}

/**
 * Why the request cannot be sent yet, in words (labels, not field names), or null when it is ready.
 * Presence is checked here for friendlier wording; values go through the contract's own validator.
 */
export function blockingReason(endpoint: Endpoint, values: FormValues): string | null {
  const s = serializeValues(endpoint, values);
  const present = (name: string) => name in s.images || name in s.params;
  const fields = Object.entries(endpoint.fields);
  for (const [name, f] of fields) {
    if (f.required && !present(name)) {
      return f.kind === 'image' ? `Add ${f.label === 'Image' ? 'a photo' : `the ${f.label.toLowerCase()}`} to run.` : `${f.label} is required.`;
    }
  }
  const groups = new Map<string, string[]>();
  for (const [name, f] of fields) if (f.oneOf) groups.set(f.oneOf, [...(groups.get(f.oneOf) ?? []), name]);
  for (const names of groups.values()) {
    if (names.some(present)) continue;
    const ways = names.map((n) => `${endpoint.fields[n].kind === 'image' ? 'add' : 'choose'} a ${endpoint.fields[n].label.toLowerCase()}`);
    const text = ways.join(' or ');
    return `${text.charAt(0).toUpperCase()}${text.slice(1)} to run.`;
  }
  try {
    validateFields(endpoint, s.params, new Set(Object.keys(s.images)));
  } catch (e) {
    if (e instanceof CodedError) return e.message;
    throw e;
  }
  return null;
}
