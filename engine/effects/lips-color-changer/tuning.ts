/**
 * The lip colour changer's tuning. The colour and its opacity are the caller's (lip_color_infos); what the
 * effect chooses is how far the lips' own lightness follows the colour's (the recolour look, looks/recolor.ts).
 */

/**
 * Share of the distance between the lips' mean lightness and the colour's that the lips move: a pale pink
 * on dark lips still reads pink, while the lips keep most of their own depth.
 */
export const LIP_LIGHTNESS = 0.3;
