/**
 * The part of an OpenAPI 3 document that the hostile-input suite reads: operations, their parameters and
 * request bodies, with `$ref` and `allOf` resolved. Everything the suite sends is derived from this, so a new
 * route is exercised as soon as the API serves it.
 */

export interface Schema {
  $ref?: string;
  allOf?: Schema[];
  type?: string;
  format?: string;
  enum?: unknown[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  minItems?: number;
  maxItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  nullable?: boolean;
  example?: unknown;
  default?: unknown;
}

export interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}

interface OperationObject {
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
  security?: Record<string, string[]>[];
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, Schema> };
}

/** A resolved schema with the name of the component it came from (for the fill hints), if any. */
export interface NamedSchema extends Schema {
  /** `RegisterDto` for `#/components/schemas/RegisterDto`. */
  refName?: string;
}

export interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** The path as the document writes it, `/api/videos/{id}`. */
  path: string;
  /** `POST /api/videos/{id}`, for messages. */
  key: string;
  pathParams: ParameterObject[];
  query: ParameterObject[];
  headers: ParameterObject[];
  body: { contentType: string; schema: NamedSchema } | null;
  /** The document says a token is needed (`security`). */
  secured: boolean;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** `$ref` and `allOf` resolved (one level at a time, as the generator walks down). */
export function resolveSchema(doc: OpenApiDocument, schema: Schema | undefined): NamedSchema {
  if (!schema) return {};
  if (schema.$ref) {
    const name = schema.$ref.replace('#/components/schemas/', '');
    const target = doc.components?.schemas?.[name];
    if (!target) throw new Error(`The document refers to a missing schema ${schema.$ref}`);
    return { ...resolveSchema(doc, target), refName: name };
  }
  if (schema.allOf?.length) {
    const { allOf, ...rest } = schema;
    const parts = allOf.map((part) => resolveSchema(doc, part));
    const merged: NamedSchema = { ...rest };
    for (const part of parts) {
      Object.assign(merged, { ...part, properties: { ...merged.properties, ...part.properties }, required: [...(merged.required ?? []), ...(part.required ?? [])] });
    }
    if (!parts.some((p) => p.properties)) delete merged.properties;
    return merged;
  }
  return schema;
}

/** Every operation of the document, in its order. */
export function listOperations(doc: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const params = op.parameters ?? [];
      const content = op.requestBody?.content ?? {};
      const contentType = Object.keys(content)[0];
      operations.push({
        method,
        path,
        key: `${method.toUpperCase()} ${path}`,
        // From the template, so that a parameter the document forgets to declare is still filled (or reported).
        pathParams: [...path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => params.find((p) => p.in === 'path' && p.name === name) ?? { name, in: 'path' }),
        query: params.filter((p) => p.in === 'query'),
        headers: params.filter((p) => p.in === 'header'),
        body: contentType ? { contentType, schema: resolveSchema(doc, content[contentType].schema) } : null,
        secured: (op.security ?? []).length > 0,
      });
    }
  }
  return operations;
}
