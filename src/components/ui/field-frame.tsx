import type { ReactNode } from 'react';
import { useDevView } from '../../lib/dev-view.ts';

export interface FieldFrameProps {
  htmlFor?: string;
  label: string;
  name: string;
  required: boolean;
  /** Shown instead of "Required" for fields where one of several must be given. */
  requirement?: string;
  description: string;
  descriptionId: string;
  action?: ReactNode;
  children: ReactNode;
  /** Set for controls that are groups (radios, toggles): the label names the group instead of one input. */
  asGroup?: boolean;
}

export function FieldFrame({ htmlFor, label, name, required, requirement, description, descriptionId, action, children, asGroup }: FieldFrameProps) {
  const Label = asGroup ? 'span' : 'label';
  const dev = useDevView((s) => s.on);
  return (
    <div className="space-y-2" role={asGroup ? 'group' : undefined} aria-label={asGroup ? label : undefined} data-field={name}>
      <div className="flex items-baseline justify-between gap-3">
        <div className="flex min-w-0 items-baseline gap-2">
          <Label htmlFor={asGroup ? undefined : htmlFor} className="text-[13px] font-semibold text-stone-800">
            {label}
          </Label>
          {required ? (
            <span className="rounded bg-accent-50 px-1.5 text-[10px] font-semibold uppercase tracking-wide text-accent-700">Required</span>
          ) : requirement ? (
            <span className="rounded bg-stone-100 px-1.5 text-[10px] font-semibold uppercase tracking-wide text-stone-600">{requirement}</span>
          ) : null}
          {dev && <code className="truncate font-mono text-[11px] text-stone-600">{name}</code>}
        </div>
        {action}
      </div>
      {children}
      <p id={descriptionId} className="text-xs leading-5 text-stone-600">
        {description}
      </p>
    </div>
  );
}
