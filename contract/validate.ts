/**
 * Validation of the non-image fields of a request against the contract. Pure: the engine uses it at the
 * edge, the studio can use it before sending. Messages say which field, what was given and what is allowed.
 */
import type { Endpoint, LipColorInfo } from './endpoint.ts';
import type { Field } from './fields.ts';
import { CodedError } from './errors.ts';

const invalid = (name: string, got: string, allowed: string) =>
  new CodedError('ERROR_INVALID_PARAMETER', `${name}: expected ${allowed}, got ${JSON.stringify(got.length > 80 ? got.slice(0, 80) + '…' : got)}`);

export function describeField(f: Field): string {
  switch (f.kind) {
    case 'image': return 'an image file';
    case 'enum': return `one of ${f.values.join(', ')}`;
    case 'int': return f.min === 0 && f.max === 1 ? '0 or 1' : `an integer from ${f.min} to ${f.max}`;
    case 'number': return `a number from ${f.min} to ${f.max}`;
    case 'csv-set': return `a comma-separated list of ${f.values.join(', ')}`;
    case 'lip-colors': return `a JSON array of at most ${f.maxItems} objects {"rgba":{"r":0-255,"g":0-255,"b":0-255,"a":0-100},"face_rect"?:{"x","y","width","height"}}`;
    case 'text': return `text of at most ${f.maxLength} characters`;
  }
}

function parseValue(name: string, f: Field, raw: string): unknown {
  const s = raw.trim();
  switch (f.kind) {
    case 'enum':
      if (!f.values.includes(s)) throw invalid(name, raw, describeField(f));
      return s;
    case 'int': {
      if (!/^[+-]?\d+$/.test(s)) throw invalid(name, raw, describeField(f));
      const n = Number(s);
      if (n < f.min || n > f.max) throw invalid(name, raw, describeField(f));
      return n;
    }
    case 'number': {
      const n = s === '' ? NaN : Number(s);
      if (!Number.isFinite(n) || n < f.min || n > f.max) throw invalid(name, raw, describeField(f));
      return n;
    }
    case 'csv-set': {
      const items = s.split(',').map((x) => x.trim()).filter(Boolean);
      if (items.length === 0 || items.some((x) => !f.values.includes(x))) throw invalid(name, raw, describeField(f));
      return [...new Set(items)];
    }
    case 'lip-colors': return parseLipColors(name, f.maxItems, raw);
    case 'text':
      if (characters(s) > f.maxLength) throw invalid(name, raw, describeField(f));
      return s;
    case 'image':
      throw invalid(name, raw, 'a file upload');
  }
}

/**
 * A text's length in characters: Unicode code points, as JSON Schema's maxLength counts them (the OpenAPI
 * document states the limit as one), not UTF-16 units (an emoji is one character, not two).
 */
function characters(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

function parseLipColors(name: string, maxItems: number, raw: string): LipColorInfo[] {
  const allowed = `a JSON array of 1..${maxItems} objects {"rgba":{"r":0-255,"g":0-255,"b":0-255,"a":0-100},"face_rect"?:{"x","y","width","height"}}`;
  let v: unknown;
  try { v = JSON.parse(raw); } catch { throw invalid(name, raw, allowed); }
  if (!Array.isArray(v) || v.length === 0 || v.length > maxItems) throw invalid(name, raw, allowed);
  const inRange = (x: unknown, lo: number, hi: number) => typeof x === 'number' && Number.isFinite(x) && x >= lo && x <= hi;
  return v.map((item, i) => {
    const rgba = (item as LipColorInfo)?.rgba;
    if (!rgba || !inRange(rgba.r, 0, 255) || !inRange(rgba.g, 0, 255) || !inRange(rgba.b, 0, 255) || !inRange(rgba.a, 0, 100)) {
      throw new CodedError('ERROR_INVALID_PARAMETER', `${name}[${i}].rgba: expected {"r":0-255,"g":0-255,"b":0-255,"a":0-100}, got ${JSON.stringify(rgba ?? null)}`);
    }
    const out: LipColorInfo = { rgba: { r: rgba.r, g: rgba.g, b: rgba.b, a: rgba.a } };
    const fr: unknown = (item as { face_rect?: unknown }).face_rect;
    if (fr !== undefined) {
      const where = `${name}[${i}].face_rect`;
      if (fr === null || typeof fr !== 'object' || Array.isArray(fr)) {
        throw new CodedError('ERROR_INVALID_PARAMETER', `${where}: expected an object {"x","y","width","height"} of numbers, got ${JSON.stringify(fr)}`);
      }
      // JSON numbers only: "120", true and [130] are not sizes, though JavaScript's comparisons would take them.
      const rect = fr as Record<string, unknown>;
      const member = (key: 'x' | 'y' | 'width' | 'height'): number => {
        const v = rect[key];
        const size = key === 'width' || key === 'height';
        if (typeof v !== 'number' || !Number.isFinite(v) || (size && v <= 0)) {
          throw new CodedError('ERROR_INVALID_PARAMETER', `${where}.${key}: expected a number${size ? ' above 0' : ''}, got ${v === undefined ? 'nothing' : JSON.stringify(v)}`);
        }
        return v;
      };
      out.face_rect = { x: member('x'), y: member('y'), width: member('width'), height: member('height') };
    }
    return out;
  });
}

/**
 * Checks presence and values. `raw` maps field names to their text values; `images` names the image
 * fields that were uploaded. Returns the parsed params with defaults applied.
 */
export function validateFields(endpoint: Endpoint, raw: Record<string, string | undefined>, images: ReadonlySet<string>): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  const present = (name: string, f: Field) => (f.kind === 'image' ? images.has(name) : raw[name] !== undefined && raw[name] !== '');
  const oneOfGroups = new Map<string, string[]>();
  for (const [name, f] of Object.entries(endpoint.fields)) {
    if (f.oneOf) oneOfGroups.set(f.oneOf, [...(oneOfGroups.get(f.oneOf) ?? []), name]);
    if (f.required && !present(name, f)) {
      throw new CodedError('MISSING_PARAMETERS', `${name} is required (${describeField(f)})`);
    }
  }
  for (const names of oneOfGroups.values()) {
    if (!names.some((n) => present(n, endpoint.fields[n]))) {
      throw new CodedError('MISSING_PARAMETERS', `one of ${names.join(' or ')} is required`);
    }
  }
  for (const [name, f] of Object.entries(endpoint.fields)) {
    if (f.kind === 'image') continue;
    const v = raw[name];
    if (v === undefined || v === '') {
      if ('default' in f && f.default !== undefined) params[name] = f.default;
      continue;
    }
    params[name] = parseValue(name, f, v);
  }
  return params;
}
