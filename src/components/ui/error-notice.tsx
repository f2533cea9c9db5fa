import type { ShownError } from '../../lib/api-client.ts';
import { useDevView } from '../../lib/dev-view.ts';
import { Notice } from './notice.tsx';

/**
 * An envelope error as people read it: what happened, the exact message, and the reference to quote in a bug
 * report. The HTTP status and the error code are for developers: shown in the developer view.
 */
export function ErrorNotice({ error, className }: { error: ShownError; className?: string }) {
  const dev = useDevView((s) => s.on);
  const unavailable = error.code === 'ERROR_AI_NOT_AVAILABLE';
  const title = unavailable ? 'Not available on this engine' : error.code_message || 'Request failed';
  return (
    <Notice
      tone={unavailable ? 'warning' : 'danger'}
      role="alert"
      className={className}
      title={title}
      aside={
        dev && <code className="font-mono text-[11px] opacity-80">
          {error.status ? `${error.status} · ` : ''}
          {error.code}
        </code>
      }
    >
      <p>{error.message}</p>
      {error.request_id && (
        <p className="mt-1.5 text-[11px] opacity-70">
          {dev ? 'request_id' : 'Reference for a bug report:'} <span className="select-all font-mono">{error.request_id}</span>
        </p>
      )}
    </Notice>
  );
}
