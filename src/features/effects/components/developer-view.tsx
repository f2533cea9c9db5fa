/**
 * The developer view of a panel: the endpoint, the fields as sent (JSON) and a ready-to-copy curl command
 * that goes through the studio's proxy, which adds the API key as it does for the studio itself.
 */
import { useState } from 'react';
import type { Endpoint } from '../../../../contract/endpoint.ts';
import { Button } from '../../../components/ui/button.tsx';
import type { Serialized } from '../utils/form-values.ts';

/** Single-quoted for a POSIX shell ('it'\''s'). */
const shellQuote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

export function curlCommand(endpoint: Endpoint, input: Serialized, origin = globalThis.location?.origin ?? 'http://127.0.0.1:4173'): string {
  const parts = ['curl', '-X', endpoint.method];
  for (const [name, file] of Object.entries(input.images)) parts.push('-F', shellQuote(`${name}=@${file.name}`));
  for (const [name, text] of Object.entries(input.params)) parts.push('-F', shellQuote(`${name}=${text}`));
  parts.push(shellQuote(`${origin}${endpoint.path}`));
  return parts.join(' ');
}

export function requestJson(input: Serialized): string {
  const images = Object.fromEntries(Object.entries(input.images).map(([n, f]) => [n, `(file) ${f.name}`]));
  return JSON.stringify({ ...images, ...input.params }, null, 2);
}

function Copyable({ label, text }: { label: string; text: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard?.writeText(text).catch(() => undefined);
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <div className="relative">
      <Button size="sm" className="absolute right-2 top-2" onClick={() => void copy()} aria-label={`Copy ${label}`}>
        {copied ? 'Copied' : 'Copy'}
      </Button>
      <pre aria-label={label} className="overflow-auto whitespace-pre-wrap break-all rounded-xl bg-stone-900 p-3 pr-16 font-mono text-[12px] leading-5 text-stone-100">
        {text}
      </pre>
    </div>
  );
}

export function DeveloperView({ endpoint, input }: { endpoint: Endpoint; input: Serialized }) {
  return (
    <section aria-label="Developer view" className="space-y-3 border-t border-stone-200 pt-5">
      <h2 className="text-[13px] font-semibold text-stone-800">Developer view</h2>
      <p className="text-xs leading-5 text-stone-600">
        <code className="font-mono">{endpoint.method} {endpoint.path}</code> ({endpoint.mode === 'async' ? 'answers a task_id to poll' : 'answers when done'}), multipart/form-data. The
        command goes through this studio&rsquo;s proxy, which adds the API key; straight to the engine, add{' '}
        <code className="font-mono">-H &quot;service-api-key: $KEY&quot;</code>.
      </p>
      <Copyable label="Fields sent (JSON)" text={requestJson(input)} />
      <Copyable label="curl command" text={curlCommand(endpoint, input)} />
    </section>
  );
}
