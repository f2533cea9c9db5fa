/**
 * The fixed split of the shared age/gender and emotion chips (scripts/quality/face-attributes.ts and
 * scripts/quality/face-attributes-cache.ts): by file name (sha1), stratified by gender x age and by emotion class,
 * made before any measurement. Moved here unchanged so both scripts use the very same halves.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

export type Half = 'fit' | 'check';
export interface Item { rel: string; set: 'age_gender' | 'emotion'; half: Half; age?: number; gender?: 0 | 1; emotion?: number }

/** FER-2013 folder names -> API emotion codes (0 neutral, 1 happy, 2 surprised, 3 angry, 4 sad, 5 disgusted, 6 fearful). */
export const FER_CODE: Record<string, number> = { neutral: 0, happy: 1, surprise: 2, angry: 3, sad: 4, disgust: 5, fear: 6 };
export const EMOTION_NAMES = ['neutral', 'happy', 'surprised', 'angry', 'sad', 'disgusted', 'fearful'];

const hash = (name: string) => createHash('sha1').update(path.basename(name)).digest('hex');

export function listFolder(testdata: string, folder: string): string[] {
  const dir = path.join(testdata, folder);
  return existsSync(dir) ? readdirSync(dir).filter((f) => /\.(jpe?g|png)$/i.test(f)).map((f) => `${folder}/${f}`).sort() : [];
}

export function splitItems(testdata: string, labels: { files: Record<string, Record<string, unknown>> }): Item[] {
  const items: Item[] = [];
  // UTKFace: per gender, sorted by age; each neighbouring pair (by age) goes one to each half, the smaller hash to fit.
  const ag = listFolder(testdata, 'faces_age_gender').map((rel) => ({ rel, l: labels.files[rel] ?? {} })).filter((x) => typeof x.l.age === 'number');
  for (const g of ['male', 'female']) {
    const list = ag.filter((x) => x.l.gender === g).sort((a, b) => (a.l.age as number) - (b.l.age as number) || hash(a.rel).localeCompare(hash(b.rel)));
    for (let i = 0; i < list.length; i += 2) {
      const pair = list.slice(i, i + 2);
      const fitRel = pair.length === 2 ? (hash(pair[0].rel) < hash(pair[1].rel) ? pair[0].rel : pair[1].rel) : parseInt(hash(pair[0].rel)[0], 16) % 2 === 0 ? pair[0].rel : '';
      for (const x of pair) items.push({ rel: x.rel, set: 'age_gender', half: x.rel === fitRel ? 'fit' : 'check', age: x.l.age as number, gender: g === 'male' ? 0 : 1 });
    }
  }
  // FER-2013: per class, sorted by hash, alternating; classes alternate which half gets the odd one.
  const em = listFolder(testdata, 'faces_emotion').map((rel) => ({ rel, l: labels.files[rel] ?? {} })).filter((x) => typeof x.l.emotion === 'string');
  Object.keys(FER_CODE).sort().forEach((cls, ci) => {
    em.filter((x) => x.l.emotion === cls).sort((a, b) => hash(a.rel).localeCompare(hash(b.rel)))
      .forEach((x, i) => items.push({ rel: x.rel, set: 'emotion', half: (i + ci) % 2 === 0 ? 'fit' : 'check', emotion: FER_CODE[cls] }));
  });
  return items;
}
