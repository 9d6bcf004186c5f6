import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * Holds an HTTP answer against the OpenAPI 3.0 document: its status must be one the operation declares, its
 * content type one that status declares (none where it declares none), and its body must match that schema.
 * Schemas are the document's own, made JSON Schema for ajv: `nullable` becomes a `null` type, and objects are
 * closed (a field the document does not name is drift too); `$ref`s resolve to the document's components.
 */

interface Schema {
  [keyword: string]: unknown;
}
interface MediaType {
  schema?: Schema;
}
interface ResponseObject {
  content?: Record<string, MediaType>;
}
export interface OperationObject {
  operationId?: string;
  summary?: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema }[];
  responses: Record<string, ResponseObject>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, Schema> };
}

/** What the checker needs of an answer (supertest's Response has it). */
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  text: string;
}

const COMPONENTS = 'https://openapi.invalid/components/schemas/';
/** OpenAPI's annotations that are not JSON Schema keywords. */
const ANNOTATIONS = new Set(['example', 'xml', 'externalDocs']);

/** An OpenAPI 3.0 schema as JSON Schema (draft-07, as ajv reads it). */
export function toJsonSchema(schema: Schema): Schema {
  if (typeof schema.$ref === 'string') return { $ref: schema.$ref.replace('#/components/schemas/', COMPONENTS) };
  const out: Schema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (ANNOTATIONS.has(keyword) || keyword === 'nullable') continue;
    if (keyword === 'properties') {
      out.properties = Object.fromEntries(Object.entries(value as Record<string, Schema>).map(([name, s]) => [name, toJsonSchema(s)]));
    } else if (keyword === 'items' || keyword === 'not' || (keyword === 'additionalProperties' && typeof value === 'object')) {
      out[keyword] = toJsonSchema(value as Schema);
    } else if (keyword === 'allOf' || keyword === 'anyOf' || keyword === 'oneOf') {
      out[keyword] = (value as Schema[]).map(toJsonSchema);
    } else {
      out[keyword] = value;
    }
  }
  // 3.0's exclusive bounds are flags on minimum and maximum; draft-07's are the bounds themselves.
  for (const [flag, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof out[flag] !== 'boolean') continue;
    if (out[flag]) out[flag] = out[bound];
    else delete out[flag];
    if (out[flag] !== undefined) delete out[bound];
  }
  if (out.type === 'object' && out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  if (schema.nullable !== true) return out;
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  if (typeof out.type === 'string') return { ...out, type: [out.type, 'null'] };
  return { anyOf: [out, { type: 'null' }] };
}

export type Checker = (method: string, template: string, answer: Answer) => string[];

/** A checker for the answers of `doc`'s operations: each call gives the problems found, none when it conforms. */
export function conformanceChecker(doc: OpenApiDocument): Checker {
  const ajv = new Ajv({ allErrors: true, strict: true });
  addFormats(ajv);
  // Multipart files in request bodies: never in an answer, but a component may name them.
  ajv.addFormat('binary', true);
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
    ajv.addSchema({ ...toJsonSchema(schema), $id: `${COMPONENTS}${name}` });
  }
  const compiled = new Map<Schema, ValidateFunction>();
  const validatorOf = (schema: Schema) => {
    let validate = compiled.get(schema);
    if (!validate) compiled.set(schema, (validate = ajv.compile(toJsonSchema(schema))));
    return validate;
  };

  return (method, template, answer) => {
    const where = `${method.toUpperCase()} ${template} → ${answer.status}`;
    const operation = doc.paths[template]?.[method.toLowerCase()];
    if (!operation) return [`${where}: no such operation in the document`];
    const declared = operation.responses[String(answer.status)] ?? operation.responses[`${String(answer.status)[0]}XX`] ?? operation.responses.default;
    if (!declared) {
      return [`${where}: the document declares only ${Object.keys(operation.responses).join(', ')} (body: ${answer.text.slice(0, 200)})`];
    }
    const contentType = String(answer.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (!declared.content) {
      return answer.text ? [`${where}: declared without a body, answered ${contentType || 'a body'}: ${answer.text.slice(0, 200)}`] : [];
    }
    const media = declared.content[contentType];
    if (!media) return [`${where}: answered ${contentType || 'no content type'}, declared ${Object.keys(declared.content).join(', ')}`];
    if (!media.schema) return [];
    const validate = validatorOf(media.schema);
    const body = contentType === 'application/json' ? answer.body : answer.text;
    if (validate(body)) return [];
    return (validate.errors ?? []).map((e) => `${where}: body${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
  };
}
