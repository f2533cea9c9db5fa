const MB = 1024 * 1024;

/** 3 MB, 3.5 MB, 240 KB: sizes as people read them (binary units, as the limits are written). */
export function formatBytes(bytes: number): string {
  if (bytes >= MB) return `${trim((bytes / MB).toFixed(2))} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

const trim = (s: string) => s.replace(/\.?0+$/, '');

export function formatTime(ms: number, now = Date.now()): string {
  const d = new Date(ms);
  const sameDay = new Date(now).toDateString() === d.toDateString();
  const time = d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return sameDay ? time : `${d.toLocaleDateString([], { month: 'short', day: 'numeric' })}, ${time}`;
}

export function formatSeconds(ms: number): string {
  const s = ms / 1000;
  if (s < 0.1) return 'under 0.1 s';
  return s < 10 ? `${s.toFixed(1)} s` : `${Math.round(s)} s`;
}

/** "Product background removal" → "product background removal", for use inside a sentence. */
export const inSentence = (title: string) => title.charAt(0).toLowerCase() + title.slice(1);

export const newId = (): string =>
  typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
