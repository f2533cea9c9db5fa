/** The OpenAPI 3 document, generated from the contract: one operation per endpoint, fields as form parts. */
import { endpointList } from '../../contract/index.ts';
import type { Field } from '../../contract/fields.ts';
import { describeLimits } from '../../contract/limits.ts';
import { errorCodes } from '../../contract/errors.ts';

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

const envelope = {
  type: 'object',
  required: ['request_id', 'log_id', 'error_detail'],
  properties: {
    request_id: { type: 'string' }, log_id: { type: 'string' },
    error_detail: { type: 'object', properties: { code: { type: 'string' }, code_message: { type: 'string' }, message: { type: 'string' } } },
  },
};

export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const e of endpointList) {
    const fields = Object.entries(e.fields);
    const required = fields.filter(([, f]) => f.required).map(([n]) => n);
    const errors = Object.fromEntries([...new Set(Object.values(errorCodes).map((c) => c.status))].map((s) =>
      [String(s), { description: Object.entries(errorCodes).filter(([, c]) => c.status === s).map(([k]) => k).join(', '), content: { 'application/json': { schema: envelope } } }]));
    const op: Record<string, unknown> = {
      operationId: e.slug, summary: e.title, description: `${e.summary} (${e.mode})`, tags: [e.group],
      responses: { 200: { description: 'Success', content: { 'application/json': { schema: envelope } } }, ...errors },
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
