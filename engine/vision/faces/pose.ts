/**
 * Head pose from the face mesh. Human's mesh gives x, y in image pixels but z in the mesh model's own
 * units (its 192 px crop), so z is first brought to pixels: the 3D distance between the cheek points
 * 234 and 454 is about MESH_FACE_WIDTH model units on every face (measured on frontal portraits), which
 * fixes the scale even when the face turns. The face's axes (cheek to cheek, forehead to chin) then
 * give yaw, pitch and roll.
 */
type P3 = [number, number, number];

export interface Pose { yaw: number; pitch: number; roll: number }

/** Model units between mesh points 234 and 454 (measured on frontal faces, scripts/quality-faces.ts). */
export const MESH_FACE_WIDTH = 112;

const sub = (a: P3, b: P3): P3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: P3, b: P3): P3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a: P3): P3 => { const l = Math.hypot(a[0], a[1], a[2]) || 1; return [a[0] / l, a[1] / l, a[2] / l]; };
const deg = (r: number) => Math.round((r * 1800) / Math.PI) / 10;

/**
 * Degrees. yaw > 0: the face turns toward the image's right; pitch > 0: it looks down; roll > 0: it leans
 * clockwise in the image. `mesh` is in image pixels except z (model units, as human returns it).
 */
export function poseFromMesh(mesh: ArrayLike<readonly number[]>): Pose {
  const p = (i: number): P3 => [mesh[i][0], mesh[i][1], mesh[i][2] ?? 0];
  const left = p(234), right = p(454), top = p(10), chin = p(152);
  const k = depthScale(mesh);
  const s = (v: P3): P3 => [v[0], v[1], v[2] * k];
  const x = norm(s(sub(right, left)));
  const yRaw = norm(s(sub(chin, top)));
  const z = norm(cross(x, yRaw)); // into the image: toward the back of the head
  const forward: P3 = [-z[0], -z[1], -z[2]];
  return {
    yaw: deg(Math.atan2(forward[0], -forward[2])),
    pitch: deg(Math.atan2(forward[1], Math.hypot(forward[0], forward[2]))),
    roll: deg(Math.atan2(x[1], x[0])),
  };
}

/** Image pixels per model z unit for this face (see MESH_FACE_WIDTH). */
export function depthScale(mesh: ArrayLike<readonly number[]>): number {
  const [a, b] = [mesh[234], mesh[454]];
  const px = Math.hypot(b[0] - a[0], b[1] - a[1]);
  const dz = Math.min(Math.abs((b[2] ?? 0) - (a[2] ?? 0)), 0.95 * MESH_FACE_WIDTH);
  return px / Math.sqrt(MESH_FACE_WIDTH ** 2 - dz ** 2);
}
