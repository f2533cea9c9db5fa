/** The names the skin analysis answers in: its zones, members and lesion kinds (docs/interface.md#skin-analysis). */

export type ZoneName = 'skin' | 'lesions' | 'forehead' | 'glabella' | 'rightCrowsFeet' | 'leftCrowsFeet' | 'rightUnderEye' | 'leftUnderEye'
  | 'rightCheek' | 'leftCheek' | 'rightNasolabial' | 'leftNasolabial' | 'nose' | 'chin' | 'jaw' | 'tZone';

export type Zones = Record<ZoneName, Float32Array>;

export interface Scored { value: number; confidence: number }
export type LesionKind = 'acne' | 'closed_comedones' | 'mole' | 'skin_spot';
export const LESION_KINDS: readonly LesionKind[] = ['acne', 'closed_comedones', 'mole', 'skin_spot'];
export type WrinkleName = 'forehead_wrinkle' | 'crows_feet' | 'eye_finelines' | 'glabella_wrinkle' | 'nasolabial_fold';
export type PoreName = 'pores_forehead' | 'pores_left_cheek' | 'pores_right_cheek' | 'pores_jaw';
export type MemberName = 'skin_color' | 'left_eyelids' | 'right_eyelids' | 'eye_pouch' | 'dark_circle' | WrinkleName | PoreName | 'blackhead';

/** What each wrinkle kind's lines measured: Σ length·depth of the lines past its rule, and the longest line's length (mm) and depth (L*). */
export type WrinkleMeasures = Record<WrinkleName, { evidence: number; longest: number; depth: number }>;
