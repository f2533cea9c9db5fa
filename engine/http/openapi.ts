/** The OpenAPI 3 document, generated from the endpoints' descriptions: one operation per endpoint, fields as form parts. */
import type { Endpoint } from '../../contract/endpoint.ts';
import type { Field } from '../../contract/fields.ts';
import { describeLimits } from '../../contract/limits.ts';
import { errorCodes } from '../../contract/errors.ts';
import { isLeaf, type ResultShape } from '../../contract/result.ts';

function schemaOf(f: Field): Record<string, unknown> {
  const base = { description: f.description };
  switch (f.kind) {
    case 'image': return { ...base, type: 'string', format: 'binary', description: `${f.description} ${describeLimits(f.limits)}.` };
    case 'enum': return { ...base, type: 'string', enum: f.values, default: f.default };
    case 'int': return { ...base, type: 'integer', minimum: f.min, maximum: f.max, default: f.default };
    case 'number': return { ...base, type: 'number', minimum: f.min, maximum: f.max, default: f.default };
    case 'csv-set': return { ...base, type: 'string', description: `${f.description} Comma-separated: ${f.values.join(', ')}.`, default: f.default?.join(',') };
    case 'lip-colors': return { ...base, type: 'string', description: `${f.description} JSON text.` };
    case 'text': return { ...base, type: 'string', maxLength: f.maxLength };
  }
}

/** The JSON schema of a result shape's members. */
function schemaOfShape(shape: ResultShape): Record<string, unknown> {
  if (isLeaf(shape)) {
    switch (shape.from) {
      case 'image': return shape.as === 'url'
        ? { type: 'string', format: 'uri', description: `${shape.label}: URL of the image, no key needed, kept 24 hours` }
        : { type: 'string', format: 'byte', description: `${shape.label}: the image as base64` };
      case 'images': return { type: 'object', additionalProperties: shape.as === 'url' ? { type: 'string', format: 'uri' } : { type: 'string', format: 'byte' } };
      case 'value': return { type: shape.type, description: shape.description };
      case 'task_id': return { type: 'string', description: 'Poll the task query with it' };
      case 'task_result_urls': return { type: 'array', items: { type: 'string', format: 'uri' }, description: 'Once task_status is 2 and the task succeeded' };
    }
  }
  if (Array.isArray(shape)) return { type: 'array', items: { oneOf: shape.map((s: ResultShape) => schemaOfShape(s)) } };
  return { type: 'object', properties: Object.fromEntries(Object.entries(shape as Record<string, ResultShape>).map(([k, s]) => [k, schemaOfShape(s)])) };
}

const envelope = {
  type: 'object',
  required: ['request_id', 'log_id', 'error_detail'],
  properties: {
    request_id: { type: 'string' }, log_id: { type: 'string' },
    error_detail: { type: 'object', properties: { code: { type: 'string' }, code_message: { type: 'string' }, message: { type: 'string' } } },
  },
};

export function openApiDocument(endpoints: readonly Endpoint[]): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const e of endpoints) {
    const fields = Object.entries(e.fields);
    const required = fields.filter(([, f]) => f.required).map(([n]) => n);
    const errors = Object.fromEntries([...new Set(Object.values(errorCodes).map((c) => c.status))].map((s) =>
      [String(s), { description: Object.entries(errorCodes).filter(([, c]) => c.status === s).map(([k]) => k).join(', '), content: { 'application/json': { schema: envelope } } }]));
    const op: Record<string, unknown> = {
      operationId: e.slug, summary: e.title, description: `${e.summary} (${e.mode})`, tags: [e.group],
      responses: { 200: { description: 'Success', content: { 'application/json': { schema: { allOf: [envelope, schemaOfShape(e.result.shape)] } } } }, ...errors },
    };
    if (e.method === 'GET') {
      op.parameters = fields.map(([name, f]) => ({ name, in: 'query', required: f.required, schema: schemaOf(f) }));
    } else {
      op.requestBody = { required: true, content: { 'multipart/form-data': { schema: {
        type: 'object', required, properties: Object.fromEntries(fields.map(([n, f]) => [n, schemaOf(f)])) } } } };
    }
    paths[e.path] = { [e.method.toLowerCase()]: op };
  }
  return {
    openapi: '3.0.3',
    info: { title: 'Atelier engine', version: '1.0.0', description: 'Image processing service (interface 1.0.0). Every /api call needs the service-api-key header.' },
    components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'service-api-key' } } },
    security: [{ apiKey: [] }],
    paths,
  };
}

/**
 * The docs page's CSP (@fastify/swagger-ui's staticCSP): the UI is its own scripts and styles, its icons
 * are data: images, and "Try it out" calls this origin. No inline code, nothing from elsewhere. (The
 * plugin's own default adds upgrade-insecure-requests, which would break the page served over plain http.)
 */
export const docsCsp = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self' data:; "
  + "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; object-src 'none'";
