/**
 * A request answered before its body was read (refused by auth, an effect not provided, a file over
 * its limit) still has its client sending. Node closes the connection right after the answer when the
 * request said `Connection: close`, as the studio's proxy does; the proxy's next write then fails and
 * it answers 502 with an empty body instead of ours (curl and node clients hit the same). So before the
 * answer goes out, the rest of the body is read and discarded, never kept, within a bound; past the
 * bound the answer goes out anyway and the connection closes.
 */
import type { IncomingMessage } from 'node:http';

const MB = 1024 * 1024;
/** Twice the largest upload limit (10 MB) and then some: a refused photo of any usual size fits. */
export const DRAIN_MAX_BYTES = 64 * MB;
export const DRAIN_MAX_MS = 15_000;

/** Resolves true once the body has been read to its end, false when a bound stopped the reading. */
export function drainBody(raw: IncomingMessage, maxBytes = DRAIN_MAX_BYTES, maxMs = DRAIN_MAX_MS): Promise<boolean> {
  if (raw.complete || raw.readableEnded) return Promise.resolve(true);
  // A declared length over the bound would be read in vain: close at once.
  if (raw.destroyed || Number(raw.headers['content-length']) > maxBytes) return Promise.resolve(false);
  return new Promise((resolve) => {
    let seen = 0;
    const finish = (drained: boolean) => {
      clearTimeout(timer);
      raw.off('data', onData).off('end', onEnd).off('close', onClose).off('error', onClose);
      if (!drained) raw.pause();
      resolve(drained);
    };
    const onData = (chunk: Buffer) => { seen += chunk.length; if (seen > maxBytes) finish(false); };
    const onEnd = () => finish(true);
    const onClose = () => finish(raw.complete);
    const timer = setTimeout(() => finish(false), maxMs);
    // Whoever was reading (multipart's parser) has given up on this body: detach it, then discard.
    raw.unpipe();
    raw.on('data', onData).once('end', onEnd).once('close', onClose).once('error', onClose);
    raw.resume();
  });
}
