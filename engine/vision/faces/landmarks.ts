/**
 * Named indices into the 478-point face mesh (MediaPipe's topology). "Right" and "left" are the
 * subject's: the right eye is on the image's left in an upright, frontal photo. Iris points follow
 * MediaPipe's refined-landmark order: 468-472 right iris (centre first), 473-477 left iris.
 */

/** Closed outline of the face, clockwise in the image starting at the top of the forehead. */
export const FACE_OVAL = [10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377,
  152, 148, 176, 149, 150, 136, 172, 58, 132, 93, 234, 127, 162, 21, 54, 103, 67, 109];

export const LIPS_UPPER_OUTER = [61, 185, 40, 39, 37, 0, 267, 269, 270, 409, 291];
export const LIPS_LOWER_OUTER = [61, 146, 91, 181, 84, 17, 314, 405, 321, 375, 291];
export const LIPS_UPPER_INNER = [78, 191, 80, 81, 82, 13, 312, 311, 310, 415, 308];
export const LIPS_LOWER_INNER = [78, 95, 88, 178, 87, 14, 317, 402, 318, 324, 308];

/** Eye openings (lid margins), closed. */
export const RIGHT_EYE = [33, 246, 161, 160, 159, 158, 157, 173, 133, 155, 154, 153, 145, 144, 163, 7];
export const LEFT_EYE = [263, 466, 388, 387, 386, 385, 384, 398, 362, 382, 381, 380, 374, 373, 390, 249];

/** Brows as closed shapes: upper edge from the temple inward, then the lower edge back. */
export const RIGHT_BROW = [70, 63, 105, 66, 107, 55, 65, 52, 53, 46];
export const LEFT_BROW = [300, 293, 334, 296, 336, 285, 295, 282, 283, 276];

export const RIGHT_IRIS = { center: 468, ring: [469, 470, 471, 472] };
export const LEFT_IRIS = { center: 473, ring: [474, 475, 476, 477] };

/** Eye corners: outer, inner. */
export const RIGHT_EYE_CORNERS = [33, 133] as const;
export const LEFT_EYE_CORNERS = [263, 362] as const;

export const NOSE_TIP = 1;
export const FOREHEAD_TOP = 10;
export const CHIN = 152;
export const BETWEEN_EYES = 168;

/** Mesh eye contours that the iris model refines: mesh indices per contour, and the iris model's matching outputs. */
export const IRIS_REFINES = {
  right: {
    upper0: [246, 161, 160, 159, 158, 157, 173], lower0: [33, 7, 163, 144, 145, 153, 154, 155, 133],
    upper1: [247, 30, 29, 27, 28, 56, 190], lower1: [130, 25, 110, 24, 23, 22, 26, 112, 243],
    upper2: [113, 225, 224, 223, 222, 221, 189], lower2: [226, 31, 228, 229, 230, 231, 232, 233, 244],
    lower3: [143, 111, 117, 118, 119, 120, 121, 128, 245],
  },
  left: {
    upper0: [466, 388, 387, 386, 385, 384, 398], lower0: [263, 249, 390, 373, 374, 380, 381, 382, 362],
    upper1: [467, 260, 259, 257, 258, 286, 414], lower1: [359, 255, 339, 254, 253, 252, 256, 341, 463],
    upper2: [342, 445, 444, 443, 442, 441, 413], lower2: [446, 261, 448, 449, 450, 451, 452, 453, 464],
    lower3: [372, 340, 346, 347, 348, 349, 350, 357, 465],
  },
  /** Index ranges in the iris model's 71 eye-contour points, per contour above. */
  model: {
    upper0: [9, 10, 11, 12, 13, 14, 15], lower0: [0, 1, 2, 3, 4, 5, 6, 7, 8],
    upper1: [25, 26, 27, 28, 29, 30, 31], lower1: [16, 17, 18, 19, 20, 21, 22, 23, 24],
    upper2: [41, 42, 43, 44, 45, 46, 47], lower2: [32, 33, 34, 35, 36, 37, 38, 39, 40],
    lower3: [54, 55, 56, 57, 58, 59, 60, 61, 62],
  },
} as const;
