/** The sidebar: every effect except the task query, grouped and ordered as contract/groups.ts says. */
import { useIsMutating } from '@tanstack/react-query';
import { endpointList } from '../../../../contract/index.ts';
import type { Endpoint } from '../../../../contract/endpoint.ts';
import { groups } from '../../../../contract/groups.ts';
import { Select } from '../../../components/ui/select.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { cn } from '../../../lib/cn.ts';

export const effectSections = groups
  .map((group) => ({ group, endpoints: endpointList.filter((e) => e.group === group.id && e.mode !== 'query') }))
  .filter((s) => s.endpoints.length > 0);

export const panelEndpoints: Endpoint[] = effectSections.flatMap((s) => s.endpoints);

export interface EffectNavProps {
  current: string;
  isAvailable: (slug: string) => boolean;
}

/** A small mark instead of a wide badge, so names stay readable when many effects are missing. */
function UnavailableMark({ label = true }: { label?: boolean }) {
  return (
    <span className="inline-flex shrink-0 items-center text-amber-600" title="Not available on this engine">
      <svg className="size-3.5" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.6" aria-hidden="true">
        <circle cx="8" cy="8" r="6" />
        <path d="M3.8 12.2 12.2 3.8" />
      </svg>
      {label && <span className="sr-only">Not available</span>}
    </span>
  );
}

function NavItem({ endpoint, active, available }: { endpoint: Endpoint; active: boolean; available: boolean }) {
  const running = useIsMutating({ mutationKey: ['run-effect', endpoint.slug] }) > 0;
  return (
    <a
      href={`#${endpoint.slug}`}
      aria-current={active ? 'page' : undefined}
      className={cn(
        'group flex h-9 items-center gap-2 rounded-lg px-2.5 text-[13.5px] transition-colors',
        'focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-accent-500',
        active
          ? 'bg-white font-medium text-stone-900 shadow-card ring-1 ring-stone-200'
          : cn('hover:bg-stone-200/50 hover:text-stone-900', available ? 'text-stone-700' : 'text-stone-600'),
      )}
    >
      <span className="min-w-0 flex-1 truncate">{endpoint.title}</span>
      {running && <Spinner className="size-3.5 text-accent-600" />}
      {!available && <UnavailableMark />}
    </a>
  );
}

export function EffectNav({ current, isAvailable }: EffectNavProps) {
  // Effects the engine does not provide go out of the way, to a closed list at the end.
  const unavailable = panelEndpoints.filter((e) => !isAvailable(e.slug));
  return (
    <nav aria-label="Effects" className="space-y-6">
      {effectSections.map(({ group, endpoints }) => {
        const shown = endpoints.filter((e) => isAvailable(e.slug));
        if (shown.length === 0) return null;
        return (
          <section key={group.id} aria-labelledby={`nav-${group.id}`}>
            <h2 id={`nav-${group.id}`} className="mb-1.5 px-2.5 text-[11px] font-semibold uppercase tracking-[0.08em] text-stone-600">
              {group.title}
            </h2>
            <ul className="space-y-0.5">
              {shown.map((e) => (
                <li key={e.slug}>
                  <NavItem endpoint={e} active={e.slug === current} available />
                </li>
              ))}
            </ul>
          </section>
        );
      })}
      {unavailable.length > 0 && (
        <details open={unavailable.some((e) => e.slug === current)} className="group/na">
          <summary className="flex cursor-pointer items-center gap-1.5 px-2.5 text-[12px] text-stone-600 hover:text-stone-900">
            <UnavailableMark label={false} />
            Not available on this engine ({unavailable.length})
          </summary>
          <ul className="mt-1.5 space-y-0.5">
            {unavailable.map((e) => (
              <li key={e.slug}>
                <NavItem endpoint={e} active={e.slug === current} available={false} />
              </li>
            ))}
          </ul>
        </details>
      )}
    </nav>
  );
}

/** The same list as a select, for narrow screens where a sidebar would push the panel out of view. */
export function EffectSelect({ current, isAvailable }: EffectNavProps) {
  return (
    <label className="block space-y-1.5">
      <span className="text-[11px] font-semibold uppercase tracking-[0.08em] text-stone-600">Effect</span>
      <Select value={current} onChange={(e) => (window.location.hash = e.target.value)}>
        {effectSections.map(({ group, endpoints }) => (
          <optgroup key={group.id} label={group.title}>
            {endpoints.map((e) => (
              <option key={e.slug} value={e.slug}>
                {e.title}
                {isAvailable(e.slug) ? '' : ' (not available)'}
              </option>
            ))}
          </optgroup>
        ))}
      </Select>
    </label>
  );
}
