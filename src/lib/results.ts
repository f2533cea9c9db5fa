/**
 * Where each endpoint's answer carries its images (contract `result` kind), and loading them as Blobs for the
 * gallery. URLs are fetched on the studio's own origin: the proxy forwards /results to the engine.
 */
import type { ResultKind } from '../../contract/endpoint.ts';

export type ResultSource = { label: string; url: string } | { label: string; base64: string };
export interface ResultBlob { label: string; blob: Blob }

const rec = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const str = (v: unknown): v is string => typeof v === 'string' && v !== '';

export function resultSources(kind: ResultKind, body: unknown): ResultSource[] {
  const top = rec(body);
  const data = rec(top.data);
  switch (kind) {
    case 'image_url':
      return str(data.image_url) ? [{ label: 'Result', url: data.image_url }] : [];
    case 'crop':
      return str(data.url) ? [{ label: 'Crop', url: data.url }] : [];
    case 'result_image':
      return str(top.result_image) ? [{ label: 'Result', base64: top.result_image }] : [];
    case 'apparel': {
      const out: ResultSource[] = [];
      for (const el of Array.isArray(data.elements) ? data.elements : []) {
        const e = rec(el);
        if (str(e.image_url)) out.push({ label: 'All garments', url: e.image_url });
        for (const [cls, url] of Object.entries(rec(e.class_url))) if (str(url)) out.push({ label: cls, url });
      }
      return out;
    }
    case 'task_result':
      return (Array.isArray(data.result_urls) ? data.result_urls : []).filter(str).map((url, i, all) => ({
        label: all.length > 1 ? `Result ${i + 1}` : 'Result',
        url,
      }));
    case 'analysis': {
      // Skin maps come back as base64 images the size of the input; they compare well against the photo.
      const maps = rec(top.face_maps ?? rec(top.result).face_maps);
      return Object.entries(maps).filter(([, v]) => str(v)).map(([name, v]) => ({ label: name.replace(/_/g, ' '), base64: v as string }));
    }
    case 'task':
      return [];
  }
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
