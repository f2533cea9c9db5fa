/**
 * Head pose from the face mesh (x, y, z in the same pixel scale): the face's axes run cheek to cheek
 * (mesh points 234 -> 454) and forehead to chin (10 -> 152); their cross product is the direction the
 * face looks, from which yaw and pitch follow; roll is the cheek-to-cheek line's angle in the image.
 */
type P3 = [number, number, number];

export interface Pose { yaw: number; pitch: number; roll: number }

const sub = (a: P3, b: P3): P3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: P3, b: P3): P3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a: P3): P3 => { const l = Math.hypot(a[0], a[1], a[2]) || 1; return [a[0] / l, a[1] / l, a[2] / l]; };
const deg = (r: number) => Math.round((r * 1800) / Math.PI) / 10;

/** Degrees. yaw > 0: the face turns toward the image's right; pitch > 0: it looks down; roll > 0: it leans clockwise. */
export function poseFromMesh(mesh: ArrayLike<readonly number[]>): Pose {
  const p = (i: number): P3 => [mesh[i][0], mesh[i][1], mesh[i][2] ?? 0];
  const across = sub(p(454), p(234));
  const x = norm(across);
  const down = norm(sub(p(152), p(10)));
  // x (to the image's right) cross y (down) points into the image, away from the camera.
  const back = norm(cross(x, down));
  return {
    yaw: deg(Math.atan2(-back[0], back[2])),
    pitch: deg(Math.atan2(-back[1], Math.hypot(back[0], back[2]))),
    roll: deg(Math.atan2(across[1], across[0])),
  };
}
