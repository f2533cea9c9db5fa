import type { Field } from './fields.ts';
import type { GroupId } from './groups.ts';
import type { ResultSpec } from './result.ts';

export interface Endpoint {
  slug: string;
  path: string;
  method: 'POST' | 'GET';
  /** sync: the route awaits the effect; async: it queues a task; query: the task-result lookup. */
  mode: 'sync' | 'async' | 'query';
  group: GroupId;
  title: string;
  summary: string;
  /** The summary in plain words for the studio, where `summary` speaks in the API's names. */
  plainSummary?: string;
  /** The word a result download gets after the photo's name in the studio ("car-cutout.png"); the slug without it. */
  resultWord?: string;
  fields: Record<string, Field>;
  /** The answer's members besides the envelope, and where each comes from (result.ts). */
  result: ResultSpec;
}

export const defineEndpoint = <const E extends Endpoint>(e: E): E => e;

type FieldValue<F extends Field> = F extends { kind: 'image' } ? Uint8Array
  : F extends { kind: 'enum' } ? F['values'][number]
  : F extends { kind: 'int' | 'number' } ? number
  : F extends { kind: 'csv-set' } ? F['values'][number][]
  : F extends { kind: 'lip-colors' } ? LipColorInfo[]
  : string;

type Fields<E extends Endpoint> = E['fields'];
/** The non-image fields whose `required` is `true` (R) or not (the others). */
type ValueKeys<E extends Endpoint, R extends boolean> = {
  [K in keyof Fields<E>]: Fields<E>[K] extends { kind: 'image' } ? never : (Fields<E>[K] extends { required: true } ? true : false) extends R ? K : never;
}[keyof Fields<E>];

/**
 * Validated parameters of an endpoint, images excluded (they travel separately): a required field is always
 * there, an optional one may be missing (validation fills in its default where it has one).
 */
export type Params<E extends Endpoint> = { [K in ValueKeys<E, true>]: FieldValue<Fields<E>[K]> } & { [K in ValueKeys<E, false>]?: FieldValue<Fields<E>[K]> };

export interface LipColorInfo {
  rgba: { r: number; g: number; b: number; a: number };
  face_rect?: { x: number; y: number; width: number; height: number };
}
