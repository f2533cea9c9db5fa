/**
 * Drop or pick a photo (react-dropzone), see it, and learn before uploading whether it fits the effect's
 * limits; the format is read from the bytes and the size from decoding, as the engine will.
 */
import { useEffect, useRef, useState } from 'react';
import { useDropzone } from 'react-dropzone';
import { formatLabel } from '../../../../contract/limits.ts';
import type { ImageLimits } from '../../../../contract/limits.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { cn } from '../../../lib/cn.ts';
import { formatBytes } from '../../../lib/format.ts';
import { useObjectUrl } from '../../../lib/use-object-url.ts';
import type { ImageInputProps } from '../../../lib/image-input.ts';
import { limitProblems, limitsHint } from '../utils/check-limits.ts';
import type { Measured } from '../utils/check-limits.ts';
import { measureImage } from '../utils/measure-image.ts';

export type ImageDropzoneProps = ImageInputProps;

interface Check {
  file: File;
  measured: Measured;
  problems: string[];
}

function useLimitCheck(file: File | undefined, limits: ImageLimits, effectTitle: string, onCheck: (p: string[]) => void) {
  const [check, setCheck] = useState<Check>();
  const report = useRef(onCheck);
  report.current = onCheck;
  useEffect(() => {
    if (!file) return setCheck(undefined);
    let live = true;
    void measureImage(file).then((measured) => {
      if (!live) return;
      const problems = limitProblems(measured, limits, effectTitle);
      setCheck({ file, measured, problems });
      report.current(problems);
    });
    return () => {
      live = false;
    };
  }, [file, limits, effectTitle]);
  return check?.file === file ? check : undefined;
}

const describe = (m: Measured) =>
  [m.width && m.height ? `${m.width}×${m.height} px` : null, m.format ? formatLabel[m.format] : null, formatBytes(m.bytes)].filter(Boolean).join(' · ');

export function ImageDropzone({ id, label, effectTitle, limits, required, file, onFile, onCheck, describedBy }: ImageDropzoneProps) {
  const check = useLimitCheck(file, limits, effectTitle, onCheck);
  const preview = useObjectUrl(file);
  const { getRootProps, getInputProps, isDragActive, open } = useDropzone({
    multiple: false,
    noClick: !!file,
    noKeyboard: !!file,
    // Every file is accepted here and explained below: a silent refusal would teach nothing.
    onDrop: (accepted, rejected) => {
      const next = accepted[0] ?? rejected[0]?.file;
      if (next) onFile(next);
    },
  });

  const name = label === 'Image' ? 'photo' : label.toLowerCase();
  const rootProps = getRootProps({
    role: file ? 'group' : 'button',
    'aria-label': file ? `${label}: ${file.name}` : `${label}: drop a ${name} here or click to browse`,
    'aria-describedby': describedBy,
  });

  return (
    <div className="space-y-2">
      <div
        {...rootProps}
        data-testid={`dropzone-${id}`}
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
            <p className="text-sm font-medium text-stone-800">{isDragActive ? `Drop the ${name}` : `Drop a ${name} here`}</p>
            <p className="text-[13px] text-stone-500">
              or <span className="font-medium text-accent-700 underline decoration-accent-300 underline-offset-2">click to browse</span>
            </p>
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
            {check && check.problems.length === 0 && (
              <p className="flex items-center gap-1 text-xs text-emerald-700">
                <svg className="size-3.5" viewBox="0 0 16 16" fill="none" aria-hidden="true">
                  <path d="m3.5 8.5 3 3 6-7" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
                </svg>
                Fits the limits
              </p>
            )}
          </div>
          <Button size="sm" onClick={open}>
            Replace
          </Button>
          <Button size="sm" variant="ghost" onClick={() => onFile(undefined)}>
            Remove
          </Button>
        </div>
      ) : (
        <p className="text-xs text-stone-400">{limitsHint(limits)}</p>
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
