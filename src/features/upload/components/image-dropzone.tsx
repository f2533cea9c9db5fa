/**
 * Drop or pick a photo (react-dropzone), see it, and learn before uploading whether it fits the effect's
 * limits; the format is read from the bytes and the size from decoding, as the engine will.
 */
import { useEffect, useRef, useState } from 'react';
import { useDropzone } from 'react-dropzone';
import type { ImageLimits } from '../../../../contract/limits.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { cn } from '../../../lib/cn.ts';
import { formatBytes } from '../../../lib/format.ts';
import { useTouchScreen } from '../../../lib/use-touch-screen.ts';
import { useObjectUrl } from '../../../lib/use-object-url.ts';
import type { ImageInputProps, PreparedImage } from '../../../lib/image-input.ts';
import { limitProblems, limitsHint } from '../utils/check-limits.ts';
import type { Measured } from '../utils/check-limits.ts';
import { canFitHere, fitToLimits, planFit } from '../utils/fit-to-limits.ts';
import { measureImage } from '../utils/measure-image.ts';
import { seenFormatLabel } from '../utils/sniff-image.ts';

export type ImageDropzoneProps = ImageInputProps;

interface Check {
  file: File;
  measured: Measured;
  problems: string[];
  /** Converting/downsizing in the browser is under way. */
  fitting?: boolean;
  fitted?: PreparedImage;
}

function useLimitCheck(file: File | undefined, limits: ImageLimits, effectTitle: string, onCheck: ImageInputProps['onCheck']) {
  const [check, setCheck] = useState<Check>();
  const report = useRef(onCheck);
  report.current = onCheck;
  useEffect(() => {
    if (!file) return setCheck(undefined);
    let live = true;
    void (async () => {
      const measured = await measureImage(file);
      if (!live) return;
      const problems = limitProblems(measured, limits, effectTitle);
      const plan = problems.length > 0 && canFitHere() ? planFit(measured, limits) : null;
      if (!plan) {
        setCheck({ file, measured, problems });
        report.current(problems);
        return;
      }
      setCheck({ file, measured, problems: [], fitting: true });
      try {
        const fitted = await fitToLimits(file, measured, limits, plan);
        if (!live) return;
        const { width: mw, height: mh } = measured;
        const smaller = mw !== undefined && mh !== undefined && (fitted.width < mw || fitted.height < mh);
        const prepared: PreparedImage = {
          source: file,
          file: fitted.file,
          note: fitted.note,
          resized: smaller ? { from: { width: mw, height: mh }, to: { width: fitted.width, height: fitted.height } } : undefined,
        };
        setCheck({ file, measured, problems: [], fitted: prepared });
        report.current([], prepared);
      } catch (e) {
        if (!live) return;
        const why = [...problems, e instanceof Error ? e.message : String(e)];
        setCheck({ file, measured, problems: why });
        report.current(why);
      }
    })();
    return () => {
      live = false;
    };
  }, [file, limits, effectTitle]);
  return check?.file === file ? check : undefined;
}

const describe = (m: Measured) =>
  [m.width && m.height ? `${m.width}×${m.height} px` : null, m.format ? seenFormatLabel[m.format] : null, formatBytes(m.bytes)].filter(Boolean).join(' · ');

export function ImageDropzone({ id, label, effectTitle, limits, required, file, onFile, onCheck, describedBy, onMany }: ImageDropzoneProps) {
  const check = useLimitCheck(file, limits, effectTitle, onCheck);
  const preview = useObjectUrl(file);
  const replaceButton = useRef<HTMLButtonElement>(null);
  const picked = useRef(false);
  const { getRootProps, getInputProps, isDragActive, open } = useDropzone({
    multiple: !!onMany,
    noClick: !!file,
    noKeyboard: !!file,
    // Every file is accepted here and explained below: a silent refusal would teach nothing.
    onDrop: (accepted, rejected) => {
      const all = [...accepted, ...rejected.map((r) => r.file)];
      if (all.length > 1 && onMany) return onMany(all);
      if (all[0]) {
        picked.current = true;
        onFile(all[0]);
      }
    },
  });
  // Focus stays here after choosing a file (the drop box it was on turns into the preview).
  useEffect(() => {
    if (!file || !picked.current) return;
    picked.current = false;
    if (!document.activeElement || document.activeElement === document.body) replaceButton.current?.focus();
  }, [file]);

  const name = label === 'Image' ? 'photo' : label.toLowerCase();
  // A touch screen has nothing to drop: its box offers the photo library or the camera.
  const touch = useTouchScreen();
  const rootProps = getRootProps({
    role: file ? 'group' : 'button',
    'aria-label': file ? `${label}: ${file.name}` : touch ? `${label}: tap to choose a ${name} or take one` : `${label}: drop a ${name} here or click to browse`,
    'aria-describedby': describedBy,
  });

  return (
    <div className="space-y-2">
      <div
        {...rootProps}
        data-testid={`dropzone-${id}`}
        data-dropzone
        className={cn(
          'relative overflow-hidden rounded-xl transition',
          'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-500',
          file ? 'bg-checker ring-1 ring-stone-200' : 'cursor-pointer border-[1.5px] border-dashed bg-white',
          !file && (isDragActive ? 'border-accent-500 bg-accent-50' : 'border-stone-300 hover:border-stone-400 hover:bg-stone-50'),
          file && isDragActive && 'ring-2 ring-accent-500',
        )}
      >
        <input {...getInputProps({ id, 'aria-label': `Upload ${name}`, 'aria-required': required })} data-testid="dropzone-input" />
        {file ? (
          <div className="flex h-56 items-center justify-center p-3">
            {preview && <img src={preview} alt={`Preview of ${file.name}`} className="max-h-full max-w-full rounded-md object-contain shadow-card" />}
            {isDragActive && <div className="absolute inset-0 grid place-items-center bg-accent-50/85 text-sm font-medium text-accent-700">Drop to replace</div>}
          </div>
        ) : (
          <div className="flex flex-col items-center justify-center gap-2 px-6 py-9 text-center">
            <span className="grid size-10 place-items-center rounded-full bg-stone-100 text-stone-500">
              <svg className="size-5" viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
                <path d="M10 13V4m0 0L6.5 7.5M10 4l3.5 3.5M4 13v1.5A1.5 1.5 0 0 0 5.5 16h9a1.5 1.5 0 0 0 1.5-1.5V13" />
              </svg>
            </span>
            {touch ? (
              <>
                <p className="text-sm font-medium text-stone-800">Tap to choose a {name}</p>
                <p className="text-[13px] text-stone-500">from your photos, or take one with the camera</p>
              </>
            ) : (
              <>
                <p className="text-sm font-medium text-stone-800">{isDragActive ? `Drop the ${name}` : `Drop a ${name} here`}</p>
                <p className="text-[13px] text-stone-500">
                  or <span className="font-medium text-accent-700 underline decoration-accent-300 underline-offset-2">click to browse</span>
                </p>
              </>
            )}
          </div>
        )}
      </div>

      {file ? (
        <div className="flex items-center gap-2">
          <div className="min-w-0 flex-1">
            <p className="truncate text-[13px] font-medium text-stone-800" title={file.name}>
              {file.name}
            </p>
            <p className="flex items-center gap-1.5 text-xs text-stone-500">
              {check ? describe(check.measured) : (<><Spinner className="size-3" /> Checking…</>)}
            </p>
            {check?.fitting && (
              <p className="flex items-center gap-1.5 text-xs text-stone-600" role="status">
                <Spinner className="size-3" /> Fitting it to this effect…
              </p>
            )}
            {check?.fitted && (
              <p className="text-xs text-stone-700" role="status" data-testid="fit-note">
                {check.fitted.note}
              </p>
            )}
            {check && check.problems.length === 0 && !check.fitting && !check.fitted && (
              <p className="flex items-center gap-1 text-xs text-emerald-700">
                <svg className="size-3.5" viewBox="0 0 16 16" fill="none" aria-hidden="true">
                  <path d="m3.5 8.5 3 3 6-7" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
                </svg>
                Fits the limits
              </p>
            )}
          </div>
          <Button size="sm" onClick={open} ref={replaceButton}>
            Replace
          </Button>
          <Button size="sm" variant="ghost" onClick={() => onFile(undefined)}>
            Remove
          </Button>
        </div>
      ) : (
        <p className="text-xs text-stone-600">{limitsHint(limits)}</p>
      )}

      {check && check.problems.length > 0 && (
        <Notice tone="danger" role="alert" title="This photo cannot be sent as it is">
          <ul className="space-y-1">
            {check.problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </Notice>
      )}
    </div>
  );
}
