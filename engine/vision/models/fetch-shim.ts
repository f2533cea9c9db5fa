/**
 * Human loads its graph models with the global `fetch`, and Node's fetch does not do file:// URLs.
 * This wraps fetch once per thread so that file:// URLs are answered from disk; every other URL goes
 * to the original fetch untouched. Idempotent: a second install is a no-op.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const marker = Symbol.for('atelier.fetch-file-shim');

export function installFileFetch(): void {
  const current = globalThis.fetch as typeof fetch & { [marker]?: true };
  if (current[marker]) return;
  const original = current;
  const shim = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith('file://')) return original(input, init);
    try {
      const bytes = await readFile(fileURLToPath(url));
      const type = url.endsWith('.json') ? 'application/json' : 'application/octet-stream';
      return new Response(bytes, { status: 200, headers: { 'content-type': type } });
    } catch {
      return new Response(null, { status: 404, statusText: `not found: ${url}` });
    }
  };
  Object.assign(shim, { [marker]: true });
  globalThis.fetch = shim as typeof fetch;
}
