/**
 * Skin retouch: says what a run will do. The interface runs the full retouch when no switch is on (as with
 * Smart skin), which a panel of switches all off would otherwise hide.
 */
import { isFlag } from '../utils/form-values.ts';
import type { ExtraProps } from './types.ts';

export function RetouchSummary({ endpoint, values }: ExtraProps) {
  const parts = Object.entries(endpoint.fields).filter(([name, f]) => name !== 'smart_skin' && isFlag(f));
  const on = parts.filter(([name]) => values[name] === true).map(([, f]) => f.label);
  const full = values.smart_skin === true || on.length === 0;
  return (
    <div role="note" aria-label="What will run" className="rounded-xl bg-stone-50 px-3.5 py-3 text-[13px] leading-5 text-stone-600 ring-1 ring-inset ring-stone-200">
      {values.smart_skin === true ? (
        <p><span className="font-semibold text-stone-800">The full retouch runs:</span> Smart skin does every part, whatever the other switches say.</p>
      ) : full ? (
        <p>
          <span className="font-semibold text-stone-800">The full retouch runs:</span> with no switch on, every part is done, as with Smart skin. Turn on
          only the parts you want to limit it to them.
        </p>
      ) : (
        <p><span className="font-semibold text-stone-800">Only {on.length === 1 ? 'this part runs' : `these ${on.length} parts run`}:</span> {on.join(', ')}.</p>
      )}
    </div>
  );
}
