/** What shows through transparent results: a checkerboard, white, black or any colour (kept for the session). */
import { create } from 'zustand';
import { cn } from '../../../lib/cn.ts';

export type ViewerBackground = 'checker' | 'white' | 'black' | `#${string}`;

export const useViewerPrefs = create<{ background: ViewerBackground; colour: string; setBackground: (b: ViewerBackground) => void; setColour: (c: string) => void }>()(
  (set) => ({
    background: 'checker',
    colour: '#7fb7a4',
    setBackground: (background) => set({ background }),
    setColour: (colour) => set({ colour, background: colour as ViewerBackground }),
  }),
);

/** Class and inline style for a layer showing the chosen background. */
export const backgroundStyle = (b: ViewerBackground): { className: string; style?: { backgroundColor: string } } =>
  b === 'checker' ? { className: 'bg-checker' } : { className: '', style: { backgroundColor: b === 'white' ? '#ffffff' : b === 'black' ? '#000000' : b } };

export function BackgroundPicker() {
  const { background, colour, setBackground, setColour } = useViewerPrefs();
  const options: { value: ViewerBackground; label: string; swatch: string }[] = [
    { value: 'checker', label: 'Checkerboard', swatch: 'bg-checker' },
    { value: 'white', label: 'White', swatch: 'bg-white' },
    { value: 'black', label: 'Black', swatch: 'bg-black' },
  ];
  const custom = background.startsWith('#');
  return (
    <div role="group" aria-label="Background" className="flex items-center gap-1.5">
      <span className="text-[12px] text-stone-600">Background</span>
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          aria-label={o.label}
          aria-pressed={background === o.value}
          onClick={() => setBackground(o.value)}
          className={cn('size-6 rounded-md ring-1 ring-stone-300', o.swatch, background === o.value && 'ring-2 ring-accent-600 ring-offset-1')}
        />
      ))}
      <label className={cn('relative size-6 overflow-hidden rounded-md ring-1 ring-stone-300', custom && 'ring-2 ring-accent-600 ring-offset-1')} title="Any colour">
        <span className="sr-only">Any colour</span>
        <input type="color" value={colour} onChange={(e) => setColour(e.target.value)} className="absolute -inset-2 size-10 cursor-pointer" aria-pressed={custom} />
      </label>
    </div>
  );
}
