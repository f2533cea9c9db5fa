/**
 * Where the studio starts a panel differently from the interface's defaults, because the API default shows
 * nothing to someone trying the effect (issue 37): the API keeps its defaults, and the panel says what it
 * chose. Reset comes back to these.
 */
import type { Endpoint } from '../../../../contract/endpoint.ts';
import { faceAttributeTypes } from '../../../../contract/endpoints/face-analyzer.ts';
import { initialValues } from './form-values.ts';
import type { FieldValue, FormValues } from './form-values.ts';

export const studioDefaults: Partial<Record<string, Partial<Record<string, FieldValue>>>> = {
  // The API's default ("None") answers only each face's box.
  'face-analyzer': { face_attributes_type: faceAttributeTypes.filter((t) => t !== 'None') },
  // The API's default, natural light brown, does not show on brown eyes; violet is no natural eye colour, so
  // it shows on every one.
  'ai-colored-contacts': { name: 'Violet' },
};

/** The values a panel starts with: the contract's defaults, then the studio's own where it has some. */
export const startingDefaults = (endpoint: Endpoint): FormValues => ({ ...initialValues(endpoint), ...studioDefaults[endpoint.slug] });
