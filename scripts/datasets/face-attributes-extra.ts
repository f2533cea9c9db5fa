/**
 * More fit data for the age, gender and emotion combination (scripts/quality/face-attributes-combine.ts): chips
 * of the same kind as the shared ones, read from folders outside the repository, never copied into it.
 *
 * - UTKFace aligned-and-cropped chips (200 x 200, age_gender_race_timestamp.jpg[.chip.jpg]; the shared
 *   faces_age_gender chips are from the same set). Source used: github.com/mattans/AgeProgression
 *   data/UTKFace/unlabeled (no licence file; UTKFace: non-commercial research use only).
 * - FER-2013 PrivateTest crops (48 x 48 grey, class_PrivateTest_N.jpg; the shared faces_emotion crops are from
 *   the same set). Source used: github.com/RecepTahirGunlu/Duygu-Tanima test/<class>/PrivateTest_N.jpg (no
 *   licence file; FER-2013: research use).
 *
 * Every extra chip is fit data. Any chip that is one of the shared chips (either half) is left out, and for
 * UTKFace also any chip with a shared chip's timestamp (the same upload, possibly the same person), so no
 * check-half face reaches the fit data. How the folders used on 2026-12-07 were drawn is in
 * docs/experiments/face-analyzer.md#more-fit-data.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { FER_CODE } from './face-attributes-split.ts';

export interface ExtraItem { file: string; set: 'age_gender' | 'emotion'; age?: number; gender?: 0 | 1; emotion?: number }

const UTK = /^(?:utkface_)?(\d+)_([01])_(\d)_(\d+)\.jpg(?:\.chip\.jpg)?$/;
const FER = /^(?:fer2013_)?([a-z]+)_(PrivateTest_\d+\.jpg)$/;

/** The UTKFace chips in `dir` (none when it is absent), less the shared ones and their timestamps. */
export function utkExtras(dir: string | undefined, testdata: string): ExtraItem[] {
  if (!dir || !existsSync(dir)) return [];
  const shared = existsSync(path.join(testdata, 'faces_age_gender')) ? readdirSync(path.join(testdata, 'faces_age_gender')) : [];
  const stamps = new Set(shared.map((f) => UTK.exec(f)?.[4]).filter(Boolean));
  return readdirSync(dir).sort().flatMap((f) => {
    const m = UTK.exec(f);
    if (!m || stamps.has(m[4])) return [];
    return [{ file: path.join(dir, f), set: 'age_gender' as const, age: Number(m[1]), gender: Number(m[2]) as 0 | 1 }];
  });
}

/** The FER-2013 crops in `dir` (none when it is absent), less the shared ones. */
export function ferExtras(dir: string | undefined, testdata: string): ExtraItem[] {
  if (!dir || !existsSync(dir)) return [];
  const shared = new Set(existsSync(path.join(testdata, 'faces_emotion'))
    ? readdirSync(path.join(testdata, 'faces_emotion')).map((f) => FER.exec(f)?.[2]) : []);
  return readdirSync(dir).sort().flatMap((f) => {
    const m = FER.exec(f);
    if (!m || !(m[1] in FER_CODE) || shared.has(m[2])) return [];
    return [{ file: path.join(dir, f), set: 'emotion' as const, emotion: FER_CODE[m[1]] }];
  });
}
