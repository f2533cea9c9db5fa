/**
 * An effect's image limits as this engine takes them: the contract's, raised where the engine's /healthz says
 * its self-hoster raised them (ATELIER_MAX_IMAGE_SIDE, _MB), as the engine raises them (only upward), so the
 * studio sends a phone photo at its own resolution instead of shrinking it to the interface's 2000 px.
 */
import type { ImageLimits } from '../../../../contract/limits.ts';
import type { RaisedImageLimits } from '../../effects/api/get-health.ts';

export function raiseLimits(limits: ImageLimits, raised: RaisedImageLimits | undefined): ImageLimits {
  if (!raised) return limits;
  const maxSide = Math.max(limits.maxSide, raised.maxSide ?? 0), maxBytes = Math.max(limits.maxBytes, raised.maxBytes ?? 0);
  return maxSide === limits.maxSide && maxBytes === limits.maxBytes ? limits : { ...limits, maxSide, maxBytes };
}
