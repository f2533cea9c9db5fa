/**
 * A self-hoster's raised image limits (ATELIER_MAX_IMAGE_SIDE, ATELIER_MAX_IMAGE_MB): the interface's limits
 * (contract/limits.ts) stay the default, and these only ever raise an endpoint's side and size bounds, so a
 * phone photo (4032x3024, often over 3 MB) is processed at its own resolution instead of being refused.
 * Formats and minimum sides are the contract's whatever the setting.
 */
import type { Endpoint } from '../../contract/endpoint.ts';

export interface RaisedLimits {
  /** Each side may reach this many px on every endpoint whose own bound is lower. */
  maxSide?: number;
  /** An image may be this many bytes on every endpoint whose own limit is lower. */
  maxBytes?: number;
}

/** The endpoint with its image fields' bounds raised to `raise` where they are lower; the same object when nothing changes. */
export function withRaisedLimits(endpoint: Endpoint, raise: RaisedLimits): Endpoint {
  if (!raise.maxSide && !raise.maxBytes) return endpoint;
  let changed = false;
  const fields = Object.fromEntries(Object.entries(endpoint.fields).map(([name, field]) => {
    if (field.kind !== 'image') return [name, field];
    const maxSide = Math.max(field.limits.maxSide, raise.maxSide ?? 0);
    const maxBytes = Math.max(field.limits.maxBytes, raise.maxBytes ?? 0);
    if (maxSide === field.limits.maxSide && maxBytes === field.limits.maxBytes) return [name, field];
    changed = true;
    return [name, { ...field, limits: { ...field.limits, maxSide, maxBytes } }];
  }));
  return changed ? { ...endpoint, fields } as Endpoint : endpoint;
}
