/**
 * An endpoint's query fields as single strings. fastify's parser turns a repeated parameter into an
 * array; which copy a client meant is a guess we do not make, so a repeated field is refused by name.
 * Parameters that are not the endpoint's fields are ignored, as unknown form fields are.
 */
import type { Endpoint } from '../../contract/endpoint.ts';
import { CodedError } from '../../contract/errors.ts';

export function queryFields(endpoint: Endpoint, query: unknown): Record<string, string | undefined> {
  const q = (query ?? {}) as Record<string, unknown>;
  const out: Record<string, string | undefined> = {};
  for (const name of Object.keys(endpoint.fields)) {
    const v = Object.hasOwn(q, name) ? q[name] : undefined;
    if (Array.isArray(v)) {
      throw new CodedError('ERROR_INVALID_PARAMETER', `${name}: give it once; the query has it ${v.length} times`);
    }
    out[name] = typeof v === 'string' ? v : undefined;
  }
  return out;
}
