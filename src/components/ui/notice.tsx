import type { ReactNode } from 'react';
import { cn } from '../../lib/cn.ts';

type Tone = 'info' | 'warning' | 'danger' | 'success';

const tones: Record<Tone, string> = {
  info: 'bg-stone-50 ring-stone-200 text-stone-700',
  warning: 'bg-amber-50 ring-amber-200 text-amber-900',
  danger: 'bg-red-50 ring-red-200 text-red-900',
  success: 'bg-emerald-50 ring-emerald-200 text-emerald-900',
};

const icons: Record<Tone, ReactNode> = {
  info: <path d="M10 9v5m0-8h.01M18 10a8 8 0 1 1-16 0 8 8 0 0 1 16 0Z" />,
  success: <path d="m6.5 10.5 2.5 2.5 4.5-6M18 10a8 8 0 1 1-16 0 8 8 0 0 1 16 0Z" />,
  warning: <path d="M10 7.5v3.5m0 3h.01M8.6 3.2 1.9 15a1.6 1.6 0 0 0 1.4 2.4h13.4a1.6 1.6 0 0 0 1.4-2.4L11.4 3.2a1.6 1.6 0 0 0-2.8 0Z" />,
  danger: <path d="M10 6v5m0 3h.01M18 10a8 8 0 1 1-16 0 8 8 0 0 1 16 0Z" />,
};

export interface NoticeProps {
  tone?: Tone;
  title?: ReactNode;
  children?: ReactNode;
  aside?: ReactNode;
  role?: 'alert' | 'status';
  className?: string;
}

export function Notice({ tone = 'info', title, children, aside, role, className }: NoticeProps) {
  return (
    <div role={role} className={cn('flex gap-3 rounded-xl px-3.5 py-3 text-[13px] leading-5 ring-1 ring-inset', tones[tone], className)}>
      <svg className="mt-0.5 size-4 shrink-0 opacity-80" viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="1.7" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
        {icons[tone]}
      </svg>
      <div className="min-w-0 flex-1">
        {(title || aside) && (
          <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
            {title && <p className="font-semibold">{title}</p>}
            {aside}
          </div>
        )}
        {children && <div className={cn('break-words', title ? 'mt-0.5 opacity-90' : '')}>{children}</div>}
      </div>
    </div>
  );
}
