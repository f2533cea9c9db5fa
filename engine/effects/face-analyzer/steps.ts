/**
 * Steps of the face analyzer: the faces (the portrait template's choice: up to max_face_num, largest
 * first) → the attributes of the 5 largest, only the families asked for → the answer.
 */
import type endpoint from '../../../contract/endpoints/face-analyzer.ts';
import type { Params } from '../../../contract/endpoint.ts';
import type { Step } from '../../pipeline/effect.ts';
import { selectFaces, type PortraitState } from '../../pipeline/portrait.ts';
import { registryNets } from '../../vision/attributes/attribute-models.ts';
import { faceAttributes, type AttributeFamily } from '../../vision/attributes/attributes.ts';
import type { Face } from '../../vision/faces/detect.ts';
import { geometryAttributes } from './analysis/geometry-attributes.ts';
import { partAttributes } from './analysis/part-attributes.ts';
import { ANALYZER_PARSING } from './tuning.ts';
import { partInputs } from './analysis/part-inputs.ts';
import { ATTRIBUTE_FACES, emptyAttributes, neededMembers, requestedAttributes, type AttributeType, type FaceAttributes, type FaceDetail } from './answer.ts';

export type P = Params<typeof endpoint>;

export interface Measured {
  /** What was measured for each of the attribute faces (the 5 largest), in face order. */
  measured: Partial<FaceAttributes>[];
}

const requested = (p: P): AttributeType[] => (p.face_attributes_type ?? ['None']) as AttributeType[];

export const findFaces = selectFaces<P>((c) => ({
  count: c.params.max_face_num ?? 1,
  // Meshes for the faces that get attributes; the rest only need their boxes.
  detect: { meshFaces: ATTRIBUTE_FACES, searchRotations: c.params.need_rotate_detection === 1 },
}));

/** The families asked for, for the 5 largest faces; each model or measurement runs only if some family needs it. */
export const measure: Step<P, PortraitState, Measured> = async (c, kit) => {
  const need = neededMembers(requested(c.params));
  const faces = c.state.faces.slice(0, ATTRIBUTE_FACES);
  const measured: Partial<FaceAttributes>[] = faces.map(() => ({}));
  if (need.size === 0 || faces.length === 0) return { measured };

  const geometryNeeded = ['eye', 'eyebrow', 'mouth', 'nose', 'shape', 'smile', 'head_pose'].some((m) => need.has(m as keyof FaceAttributes));
  // Smile reads the emotion model's happy score.
  const families = new Set<AttributeFamily>((['age', 'gender', 'emotion'] as const).filter((f) => need.has(f) || (f === 'emotion' && need.has('smile'))));
  const partsNeeded = ['eye', 'hat', 'mask', 'moustache', 'hair', 'skin', 'beauty'].some((m) => need.has(m as keyof FaceAttributes));

  // The attribute nets (tfjs, in this thread) and the parse and hair mask (ONNX, in the engine's model host) run
  // side by side: on 2 cores the parse's networks no longer wait for the attribute nets, nor these for them.
  const [models, parts] = await Promise.all([
    families.size ? kit.models.get('human').then((human) => faceAttributes(human, c.image, faces, registryNets(kit.models), families)) : [],
    partsNeeded ? partInputs(kit.models, c.image, faces, ANALYZER_PARSING, { hair: need.has('hair') }) : undefined,
  ]);
  for (let i = 0; i < faces.length; i++) {
    // Stopped: the runner ends the job before the next step.
    if (kit.signal.aborted) break;
    const face: Face = faces[i];
    const m = measured[i];
    const a = models[i];
    if (a?.age) m.age = a.age.value;
    if (a?.gender) m.gender = { type: a.gender.value, probability: a.gender.probability };
    if (a?.emotion) m.emotion = { type: a.emotion.value, probability: a.emotion.probability };
    // A face whose mesh was not kept has no geometry to read: its geometry families stay empty.
    const g = geometryNeeded ? geometryAttributes(face, c.image, { happy: a?.emotion?.scores[1] }) : null;
    const empty = emptyAttributes();
    if (geometryNeeded) {
      m.eye = { ...empty.eye, ...(g?.eye ?? {}) };
      m.eyebrow = g?.eyebrow ?? empty.eyebrow;
      m.mouth = g?.mouth ?? empty.mouth;
      m.nose = g?.nose ?? empty.nose;
      m.shape = g?.shape ?? empty.shape;
      m.smile = g?.smile ?? 0;
      m.head_pose = g?.head_pose ?? face.pose ?? empty.head_pose;
    }
    if (parts) {
      // Likewise a face the parts cannot be measured on (no mesh) keeps those families empty.
      const parsing = parts.parsings[i];
      const p = parsing && partAttributes(parts.faces[i], parts.image, parsing, parts.hair);
      m.eye = { ...(m.eye ?? empty.eye), glass: p?.glass ?? empty.eye.glass };
      m.hat = p?.hat ?? empty.hat;
      m.mask = p?.mask ?? empty.mask;
      m.moustache = p?.moustache ?? empty.moustache;
      m.hair = p?.hair ?? empty.hair;
      m.skin = p?.skin ?? empty.skin;
      m.beauty = p?.beauty ?? 0;
    }
  }
  return { measured };
};

const rect = (f: Face) => ({ x: Math.round(f.box.x0), y: Math.round(f.box.y0), width: Math.round(f.box.w), height: Math.round(f.box.h) });

export const answer: Step<P, PortraitState & Measured> = (c) => {
  const types = requested(c.params);
  const infos: FaceDetail[] = c.state.faces.map((f, i) => ({
    face_rect: rect(f),
    face_detail_attributes_info: i < ATTRIBUTE_FACES ? requestedAttributes(c.state.measured[i], types) : emptyAttributes(),
  }));
  c.output.data = { image_width: c.image.width, image_height: c.image.height, face_detail_infos: infos };
};
