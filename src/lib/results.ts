/**
 * The images in an answer, found by walking the endpoint's result shape (contract/result.ts) beside it, and
 * loading them as Blobs for the gallery. URLs are fetched on the studio's own origin: the proxy forwards
 * /results to the engine.
 */
import { isLeaf, type ResultShape, type ResultSpec } from '../../contract/result.ts';

export type ResultSource = { label: string; url: string } | { label: string; base64: string };
export interface ResultBlob { label: string; blob: Blob }

const rec = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const str = (v: unknown): v is string => typeof v === 'string' && v !== '';

export function resultSources(spec: ResultSpec, body: unknown): ResultSource[] {
  const out: ResultSource[] = [];
  const walk = (shape: ResultShape, value: unknown) => {
    if (isLeaf(shape)) {
      if (shape.from === 'image' && str(value)) out.push(shape.as === 'url' ? { label: shape.label, url: value } : { label: shape.label, base64: value });
      if (shape.from === 'images') {
        for (const [name, v] of Object.entries(rec(value))) {
          if (!str(v)) continue;
          const label = name.replace(/_/g, ' ');
          out.push(shape.as === 'url' ? { label, url: v } : { label, base64: v });
        }
      }
      if (shape.from === 'task_result_urls' && Array.isArray(value)) {
        const urls = value.filter(str);
        urls.forEach((url, i) => out.push({ label: urls.length > 1 ? `Result ${i + 1}` : 'Result', url }));
      }
      return;
    }
    if (Array.isArray(shape)) shape.forEach((s: ResultShape, i) => walk(s, Array.isArray(value) ? value[i] : undefined));
    else for (const [k, s] of Object.entries(shape as Record<string, ResultShape>)) walk(s, rec(value)[k]);
  };
  walk(spec.shape, body);
  return out;
}

/** Absolute URLs of another origin are fetched through our own origin; the path is what the proxy forwards. */
export function sameOrigin(url: string, origin = globalThis.location?.origin): string {
  if (!origin) return url;
  try {
    const u = new URL(url, origin);
    return u.origin === origin ? u.href : `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}

export function base64ToBlob(b64: string): Blob {
  const m = /^data:([^;,]+)?(;base64)?,/.exec(b64);
  const payload = m ? b64.slice(m[0].length) : b64;
  const bin = atob(payload.replace(/\s/g, ''));
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return new Blob([bytes], { type: m?.[1] ?? sniffMime(bytes) });
}

function sniffMime(b: Uint8Array): string {
  if (b[0] === 0x89 && b[1] === 0x50) return 'image/png';
  if (b[0] === 0xff && b[1] === 0xd8) return 'image/jpeg';
  if (b[0] === 0x52 && b[8] === 0x57) return 'image/webp';
  return 'application/octet-stream';
}

export async function loadResultBlobs(sources: ResultSource[]): Promise<ResultBlob[]> {
  return Promise.all(
    sources.map(async (s) => {
      if ('base64' in s) return { label: s.label, blob: base64ToBlob(s.base64) };
      const res = await fetch(sameOrigin(s.url));
      if (!res.ok) throw new Error(`The result image ${s.url} could not be downloaded (HTTP ${res.status}).`);
      return { label: s.label, blob: await res.blob() };
    }),
  );
}
