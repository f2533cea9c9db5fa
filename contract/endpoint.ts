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

/** Validated parameters of an endpoint, images excluded (they travel separately). */
export type Params<E extends Endpoint> = {
  [K in keyof E['fields'] as E['fields'][K] extends { kind: 'image' } ? never : K]?: FieldValue<E['fields'][K]>;
};

export interface LipColorInfo {
  rgba: { r: number; g: number; b: number; a: number };
  face_rect?: { x: number; y: number; width: number; height: number };
}
