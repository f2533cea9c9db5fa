/**
 * Analysis answers (face analyzer, skin analysis) as a readable table: the envelope is left out, nested
 * objects become indented headings, `{type, probability}` and `{value, confidence}` pairs read as one line,
 * and embedded images are summarised instead of dumped.
 */
import { formatBytes } from '../../../lib/format.ts';

const envelopeKeys = new Set(['request_id', 'log_id', 'error_detail']);

export type AnalysisRow = { kind: 'head'; label: string; depth: number } | { kind: 'row'; label: string; value: string; depth: number };

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: number) => (Number.isInteger(v) ? String(v) : String(Math.round(v * 1000) / 1000));
const pct = (p: number) => (p <= 1 ? `${Math.round(p * 100)}%` : num(p));

function scalar(v: unknown): string | undefined {
  if (typeof v === 'number') return num(v);
  if (typeof v === 'string') return v.length > 200 ? `image or data, ${formatBytes(v.length)} of base64` : v;
  if (typeof v === 'boolean' || v === null) return String(v);
  if (Array.isArray(v) && v.every((x) => !isObj(x) && !Array.isArray(x))) return v.length ? v.map((x) => scalar(x)).join(', ') : 'none';
  if (isObj(v)) {
    const keys = Object.keys(v).sort().join(',');
    if (keys === 'probability,type' && typeof v.probability === 'number') return `type ${scalar(v.type)} · ${pct(v.probability)}`;
    if (keys === 'confidence,value' && typeof v.confidence === 'number') return `${scalar(v.value)} · confidence ${pct(v.confidence)}`;
    if (keys === 'value') return scalar(v.value);
    if (Object.keys(v).length === 0) return 'none';
  }
  return undefined;
}

export function analysisRows(value: unknown, label: string, depth: number, out: AnalysisRow[] = []): AnalysisRow[] {
  const s = scalar(value);
  if (s !== undefined) {
    out.push({ kind: 'row', label, value: s, depth });
    return out;
  }
  out.push({ kind: 'head', label, depth });
  const entries = Array.isArray(value) ? value.map((v, i) => [`#${i + 1}`, v] as const) : Object.entries(value as Record<string, unknown>);
  for (const [k, v] of entries) analysisRows(v, k, depth + 1, out);
  return out;
}

/** Top-level scalars go together under "Summary"; every structured member gets its own card. */
export function analysisSections(body: unknown): Array<{ title: string; rows: AnalysisRow[] }> {
  if (!isObj(body)) return [];
  const members = Object.entries(body).filter(([k]) => !envelopeKeys.has(k));
  const summary: AnalysisRow[] = [];
  const sections: Array<{ title: string; rows: AnalysisRow[] }> = [];
  for (const [k, v] of members) {
    const s = scalar(v);
    if (s !== undefined) summary.push({ kind: 'row', label: k, value: s, depth: 0 });
    else sections.push({ title: k, rows: analysisRows(v, k, -1).slice(1) });
  }
  return summary.length ? [{ title: 'Summary', rows: summary }, ...sections] : sections;
}

export function AnalysisView({ body }: { body: unknown }) {
  const sections = analysisSections(body);
  if (sections.length === 0) return <p className="text-sm text-stone-500">The answer carries no analysis fields.</p>;
  return (
    <div className="space-y-3">
      {sections.map(({ title, rows }) => (
        <section key={title} aria-label={title} className="overflow-hidden rounded-xl bg-white ring-1 ring-stone-200">
          <h3 className="border-b border-stone-100 bg-stone-50 px-3.5 py-2 font-mono text-[12px] font-semibold text-stone-700">{title}</h3>
          <table className="w-full table-fixed text-[12.5px]">
            <tbody>
              {rows.map((r, i) =>
                r.kind === 'head' ? (
                  <tr key={i} className="border-b border-stone-100">
                    <th colSpan={2} scope="rowgroup" className="px-3.5 pb-1 pt-2.5 text-left font-mono text-[11.5px] font-semibold text-stone-600" style={{ paddingLeft: 14 + r.depth * 14 }}>
                      {r.label}
                    </th>
                  </tr>
                ) : (
                  <tr key={i} className="border-b border-stone-100 last:border-0">
                    <th scope="row" className="w-[55%] break-words py-1.5 pr-2 text-left font-mono font-normal text-stone-500" style={{ paddingLeft: 14 + r.depth * 14 }}>
                      {r.label}
                    </th>
                    <td className="break-words py-1.5 pr-3.5 font-medium tabular-nums text-stone-800">{r.value}</td>
                  </tr>
                ),
              )}
            </tbody>
          </table>
        </section>
      ))}
    </div>
  );
}
