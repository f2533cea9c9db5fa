import type { ShownError } from '../../lib/api-client.ts';
import { Notice } from './notice.tsx';

/** An envelope error as people read it: what happened, the exact message, and the ids to quote in a bug report. */
export function ErrorNotice({ error, className }: { error: ShownError; className?: string }) {
  const unavailable = error.code === 'ERROR_AI_NOT_AVAILABLE';
  const title = unavailable ? 'Not available on this engine' : error.code_message || 'Request failed';
  return (
    <Notice
      tone={unavailable ? 'warning' : 'danger'}
      role="alert"
      className={className}
      title={title}
      aside={
        <code className="font-mono text-[11px] opacity-80">
          {error.status ? `${error.status} · ` : ''}
          {error.code}
        </code>
      }
    >
      <p>{error.message}</p>
      {error.request_id && (
        <p className="mt-1.5 font-mono text-[11px] opacity-60 select-all">request_id {error.request_id}</p>
      )}
    </Notice>
  );
}
