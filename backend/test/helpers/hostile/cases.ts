import { FILE_SAMPLES, Filler, pathFixture, type FillContext } from './fill';
import type { NamedSchema, OpenApiDocument, Operation } from './openapi';
import {
  HOSTILE_HEADER_VALUES,
  HOSTILE_PATH_VALUES,
  HOSTILE_QUERY_VALUES,
  hostileStrings,
  hostileValues,
  MAX_PER_NESTED_FIELD,
  multipartBody,
  MULTIPART_BOUNDARY,
  nest,
  sample,
  toJsonText,
  type Hostile,
  type MultipartPart,
} from './values';

/**
 * The requests the suite sends to one operation, all derived from the document: a valid baseline, the baseline
 * with each role, and the baseline with one thing spoiled at a time (a path parameter, a query parameter, a
 * header, a body field, the whole body).
 */

/** Who sends a request. `owner` is the role whose baseline succeeded (found by trying none, member A, admin). */
export type Role = 'none' | 'memberA' | 'memberB' | 'admin' | 'forgedToken' | 'cookie' | 'cookieCrossSite';

export interface RequestParts {
  /** Path and query, escaped (hostile parts raw, as sent). */
  url: string;
  headers: Record<string, string>;
  body?: { contentType: string; data: string | Buffer };
}

export interface HostileCase {
  label: string;
  /** Default: the operation's owner role. */
  role?: Role;
  /** The status the contract names for this case, when it names one. */
  expectStatus?: number;
  build(ctx: FillContext): RequestParts;
}

export interface OperationPlan {
  op: Operation;
  baseline(ctx: FillContext): RequestParts;
  cases: HostileCase[];
  /** Why this operation cannot be exercised as the document stands (a route the generator cannot fill). */
  problems: string[];
}

type Body =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'multipart'; parts: MultipartPart[] }
  | { kind: 'raw'; contentType: string; data: string | Buffer };

/** A request before encoding: every part still editable. */
interface Shape {
  path: Record<string, string>;
  /** Name and escaped value; a null value is sent as the bare name (`?featured`). */
  query: [string, string | null][];
  headers: Record<string, string>;
  body: Body;
}

const WRITE_METHODS = new Set(['post', 'put', 'patch', 'delete']);
const JSON_TYPE = 'application/json';

export function planOperation(doc: OpenApiDocument, op: Operation): OperationPlan {
  const filler = new Filler(doc);
  const problems: string[] = [];
  const fixtures = op.pathParams.map((p) => {
    const fixture = pathFixture(op, p.name);
    if (typeof fixture === 'string') problems.push(fixture);
    return { name: p.name, fixture: typeof fixture === 'string' ? null : fixture };
  });
  const bodySchema = op.body?.schema ?? null;
  const multipart = op.body?.contentType === 'multipart/form-data';
  if (op.body && !multipart && op.body.contentType !== JSON_TYPE) {
    problems.push(`${op.key}: request body of type ${op.body.contentType}, which the generator does not write`);
  }
  const binaryFields = multipart ? Object.entries(bodySchema?.properties ?? {}).filter(([, s]) => filler.resolve(s).format === 'binary').map(([n]) => n) : [];
  for (const field of binaryFields) {
    if (!FILE_SAMPLES[`${op.path} ${field}`]) problems.push(`${op.key}: no sample for the file field "${field}"; add one to FILE_SAMPLES in test/helpers/hostile/fill.ts`);
  }

  const shape = (ctx: FillContext): Shape => {
    const path: Record<string, string> = {};
    for (const { name, fixture } of fixtures) path[name] = fixture ? encodeURIComponent(String(fixture.valid(ctx.fx))) : 'unfillable';
    const query: [string, string | null][] = op.query.map((p) => [p.name, encodeURIComponent(String(filler.value(ctx, filler.resolve(p.schema), p.name)))]);
    let body: Body = { kind: 'none' };
    if (bodySchema && multipart) body = { kind: 'multipart', parts: multipartParts(filler, ctx, op, bodySchema) };
    else if (bodySchema) body = { kind: 'json', value: filler.value(ctx, bodySchema) };
    return { path, query, headers: {}, body };
  };
  const variant = (label: string, change: (s: Shape, ctx: FillContext) => void, extra: Partial<HostileCase> = {}): HostileCase => ({
    label,
    ...extra,
    build: (ctx) => {
      const s = shape(ctx);
      change(s, ctx);
      return encode(op, s);
    },
  });

  const cases: HostileCase[] = [];
  const isWrite = WRITE_METHODS.has(op.method);

  // Roles: the valid request as built for the owner, sent by each role (the owner again too, on later fixtures).
  for (const role of ['none', 'memberA', 'memberB', 'admin', 'forgedToken', 'cookie', 'cookieCrossSite'] as Role[]) {
    const expectStatus = role === 'cookieCrossSite' && isWrite ? 403 : op.secured && (role === 'none' || role === 'forgedToken') ? 401 : undefined;
    cases.push(variant(`as ${role}`, () => undefined, { role, expectStatus }));
  }

  // Path parameters: hostile values and other members' (or unusable) resources.
  for (const { name, fixture } of fixtures) {
    for (const value of HOSTILE_PATH_VALUES) cases.push(variant(`path {${name}}: ${value.label}`, (s) => (s.path[name] = String(value.value))));
    fixture?.others(LABELS_ONLY).forEach((other, i) => {
      cases.push(variant(`path {${name}}: ${other.label}`, (s, ctx) => (s.path[name] = encodeURIComponent(String(fixture.others(ctx.fx)[i].value)))));
    });
  }

  // Query parameters: each missing, each hostile, repeated, bracketed; and one the document does not name.
  for (const param of op.query) {
    const at = (s: Shape) => s.query.findIndex(([n]) => n === param.name);
    cases.push(variant(`query ${param.name}: missing`, (s) => s.query.splice(at(s), 1)));
    for (const value of HOSTILE_QUERY_VALUES) cases.push(variant(`query ${param.name}: ${value.label}`, (s) => (s.query[at(s)][1] = String(value.value))));
    cases.push(variant(`query ${param.name}: repeated`, (s) => s.query.push([...s.query[at(s)]])));
    cases.push(variant(`query ${param.name}: bracketed key`, (s) => (s.query[at(s)][0] = `${param.name}[a]`)));
    cases.push(variant(`query ${param.name}: without =`, (s) => (s.query[at(s)] = [param.name, null])));
  }
  cases.push(variant('query: unknown parameter', (s) => s.query.push(['hostile_extra', '1'])));
  cases.push(variant('query: __proto__ parameter', (s) => s.query.push(['__proto__', '1'])));

  // Header parameters.
  for (const header of op.headers) {
    for (const value of HOSTILE_HEADER_VALUES) cases.push(variant(`header ${header.name}: ${value.label}`, (s) => (s.headers[header.name] = String(value.value))));
  }

  // The body, field by field.
  if (bodySchema && !multipart) cases.push(...jsonFieldCases(filler, bodySchema, variant));
  if (bodySchema && multipart) cases.push(...multipartCases(filler, op, bodySchema, binaryFields, variant));

  // The body as a whole.
  if (isWrite || bodySchema) cases.push(...wholeBodyCases(multipart, variant));

  return {
    op,
    baseline: (ctx) => encode(op, shape(ctx)),
    cases,
    problems,
  };
}

/** Stands for the fixtures where only the labels of a path fixture's "others" are read. */
const LABELS_ONLY = new Proxy({}, { get: () => 0 }) as FillContext['fx'];

type Variant = (label: string, change: (s: Shape, ctx: FillContext) => void, extra?: Partial<HostileCase>) => HostileCase;

function jsonFieldCases(filler: Filler, schema: NamedSchema, variant: Variant): HostileCase[] {
  const cases: HostileCase[] = [];
  const obj = (s: Shape) => (s.body as { value: Record<string, unknown> }).value;
  for (const [name, raw] of Object.entries(schema.properties ?? {})) {
    const field = filler.resolve(raw);
    cases.push(variant(`body.${name}: missing`, (s) => delete obj(s)[name]));
    hostileValues(field, () => null).forEach((value, i) => {
      cases.push(
        variant(`body.${name}: ${value.label}`, (s, ctx) => {
          // Rebuilt with a valid item in hand: "10 000 valid items" must hold ids that exist.
          const valid = filler.value(ctx, field, name, schema.refName);
          const item = Array.isArray(valid) ? valid[0] : valid;
          obj(s)[name] = hostileValues(field, () => item)[i].value;
        }),
      );
    });
    if (field.format === 'uuid') {
      cases.push(variant(`body.${name}: another member's id`, (s, ctx) => (obj(s)[name] = (ctx.caller?.id === ctx.users.memberB.id ? ctx.users.memberA : ctx.users.memberB).id)));
    }
    // One level down: the properties of an object field, or of an array's object items; primitive items.
    const itemSchema = field.type === 'array' ? filler.resolve(field.items) : null;
    const nested = field.properties ? field : itemSchema?.properties ? itemSchema : null;
    if (nested) {
      const wrap = field.type === 'array';
      /** The valid field (or its first item) with `sub` set to `value`, or removed. */
      const put = (s: Shape, ctx: FillContext, sub: string, value: unknown, remove = false) => {
        const valid = filler.value(ctx, field, name, schema.refName);
        const base = { ...((wrap ? (valid as unknown[])[0] : valid) as Record<string, unknown>) };
        if (remove) delete base[sub];
        else base[sub] = value;
        obj(s)[name] = wrap ? [base] : base;
      };
      for (const [sub, subRaw] of Object.entries(nested.properties ?? {})) {
        const subSchema = filler.resolve(subRaw);
        cases.push(variant(`body.${name}.${sub}: missing`, (s, ctx) => put(s, ctx, sub, undefined, true)));
        for (const value of sample(hostileValues(subSchema, () => 1), MAX_PER_NESTED_FIELD)) {
          cases.push(variant(`body.${name}.${sub}: ${value.label}`, (s, ctx) => put(s, ctx, sub, value.value)));
        }
      }
      cases.push(variant(`body.${name}: extra key inside`, (s, ctx) => put(s, ctx, 'hostile_extra', 1)));
    } else if (itemSchema?.type) {
      for (const value of sample(hostileValues(itemSchema, () => 1), MAX_PER_NESTED_FIELD)) {
        cases.push(variant(`body.${name}[0]: ${value.label}`, (s) => (obj(s)[name] = [value.value])));
      }
    }
  }
  cases.push(variant('body: extra field', (s) => (obj(s).hostile_extra = 1)));
  cases.push(variant('body: extra field "userId" of member B', (s, ctx) => (obj(s).userId = ctx.users.memberB.id)));
  cases.push(variant('body: extra field "role_id": "admin"', (s) => (obj(s).role_id = 'admin')));
  // An own "__proto__" key, as JSON.parse makes one (assigning it would set the prototype instead).
  cases.push(variant('body: __proto__ field', (s) => Object.defineProperty(obj(s), '__proto__', { value: { role_id: 'admin' }, enumerable: true })));
  return cases;
}

function multipartParts(filler: Filler, ctx: FillContext, op: Operation, schema: NamedSchema): MultipartPart[] {
  const parts: MultipartPart[] = [];
  for (const [name, raw] of Object.entries(schema.properties ?? {})) {
    const field = filler.resolve(raw);
    if (field.format === 'binary') {
      const sample = FILE_SAMPLES[`${op.path} ${name}`]?.();
      if (sample) parts.push({ name, value: sample.bytes, filename: sample.filename, contentType: sample.contentType });
      continue;
    }
    const value = filler.value(ctx, field, name, schema.refName);
    // Lists go as one comma-separated field, as the admin panel sends them.
    parts.push({ name, value: Array.isArray(value) ? value.join(',') : String(value) });
  }
  return parts;
}

function multipartCases(filler: Filler, op: Operation, schema: NamedSchema, binaryFields: string[], variant: Variant): HostileCase[] {
  const cases: HostileCase[] = [];
  const parts = (s: Shape) => (s.body as { parts: MultipartPart[] }).parts;
  const at = (s: Shape, name: string) => parts(s).findIndex((p) => p.name === name);
  for (const [name, raw] of Object.entries(schema.properties ?? {})) {
    const field = filler.resolve(raw);
    cases.push(variant(`form ${name}: missing`, (s) => parts(s).splice(at(s, name), 1)));
    cases.push(variant(`form ${name}: twice`, (s) => parts(s).push({ ...parts(s)[at(s, name)] })));
    if (binaryFields.includes(name)) continue;
    const values: Hostile[] = [
      ...sample(hostileStrings(field), 20),
      { label: 'invalid UTF-8 bytes', value: Buffer.from([0x61, 0xff, 0xfe, 0xc0, 0x80]) },
      { label: 'numeric', value: '1e308' },
    ];
    for (const value of values) {
      cases.push(variant(`form ${name}: ${value.label}`, (s) => (parts(s)[at(s, name)].value = value.value as string | Buffer)));
    }
    cases.push(variant(`form ${name}: sent as a file`, (s) => Object.assign(parts(s)[at(s, name)], { filename: 'x.txt', contentType: 'text/plain' })));
  }
  for (const name of binaryFields) {
    const file = (s: Shape) => parts(s)[at(s, name)];
    cases.push(variant(`file ${name}: empty`, (s) => (file(s).value = Buffer.alloc(0))));
    cases.push(variant(`file ${name}: text`, (s) => (file(s).value = Buffer.from('not a media file at all'))));
    cases.push(variant(`file ${name}: random bytes`, (s) => (file(s).value = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)))));
    for (const other of Object.keys(FILE_SAMPLES).filter((k) => k !== `${op.path} ${name}`)) {
      cases.push(variant(`file ${name}: the sample of ${other}`, (s) => (file(s).value = FILE_SAMPLES[other]().bytes)));
    }
    cases.push(variant(`file ${name}: sent as a text field`, (s) => Object.assign(file(s), { filename: undefined, contentType: undefined })));
    for (const filename of ['../../../../etc/passwd', 'a\u0001b\u007f.mp4', `${'x'.repeat(5000)}.png`, 'clip.m3u8', '']) {
      cases.push(variant(`file ${name}: filename ${JSON.stringify(filename.slice(0, 30))}`, (s) => (file(s).filename = filename)));
    }
    cases.push(variant(`file ${name}: content type text/html`, (s) => (file(s).contentType = 'text/html')));
    cases.push(variant(`file ${name}: under an unknown field name`, (s) => (file(s).name = 'hostile_file')));
  }
  cases.push(variant('form: unknown field', (s) => parts(s).push({ name: 'hostile_extra', value: '1' })));
  cases.push(variant('form: field named __proto__', (s) => parts(s).push({ name: '__proto__', value: '1' })));
  cases.push(variant('form: 200 unknown fields', (s) => parts(s).push(...Array.from({ length: 200 }, (_, i) => ({ name: `f${i}`, value: 'x' })))));
  const raw = (label: string, contentType: string, data: (s: Shape) => string | Buffer) =>
    variant(`form: ${label}`, (s) => (s.body = { kind: 'raw', contentType, data: data(s) }));
  const form = `multipart/form-data; boundary=${MULTIPART_BOUNDARY}`;
  cases.push(raw('cut short (no closing boundary)', form, (s) => multipartBody(parts(s)).subarray(0, -(MULTIPART_BOUNDARY.length + 8))));
  cases.push(raw('cut inside the headers of a part', form, () => Buffer.from(`--${MULTIPART_BOUNDARY}\r\nContent-Disposition: form-da`)));
  cases.push(raw('other boundary than declared', 'multipart/form-data; boundary=not-the-one', (s) => multipartBody(parts(s))));
  cases.push(raw('no boundary declared', 'multipart/form-data', (s) => multipartBody(parts(s))));
  cases.push(raw('garbage', form, () => Buffer.from('this is not a form')));
  cases.push(raw('part without a name', form, () => Buffer.from(`--${MULTIPART_BOUNDARY}\r\nContent-Disposition: form-data\r\n\r\nx\r\n--${MULTIPART_BOUNDARY}--\r\n`)));
  cases.push(raw('JSON instead of a form', JSON_TYPE, (s) => toJsonText(Object.fromEntries(parts(s).map((p) => [p.name, String(p.value)])))));
  return cases;
}

function wholeBodyCases(multipart: boolean, variant: Variant): HostileCase[] {
  const raw = (label: string, data: string | Buffer, contentType = JSON_TYPE) => variant(`whole body: ${label}`, (s) => (s.body = { kind: 'raw', contentType, data }));
  const validJson = (s: Shape) => (s.body.kind === 'json' ? toJsonText(s.body.value) : '{}');
  const cases = [
    variant('whole body: none', (s) => (s.body = { kind: 'none' })),
    raw('{}', '{}'),
    raw('array', '[]'),
    raw('array of the valid body', '[{}]'),
    raw('string', '"text"'),
    raw('number', '42'),
    raw('null', 'null'),
    raw('true', 'true'),
    raw('invalid JSON', '{"a":'),
    raw('trailing comma', '{"a":1,}'),
    raw('single quotes', "{'a':1}"),
    raw('invalid UTF-8 in a string', Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff, 0xc0, 0xaf]), Buffer.from('"}')])),
    raw('UTF-16 body', Buffer.from('{"a":"b"}', 'utf16le')),
    raw(`nested ${MAX_DEPTH_PROBE} levels`, toJsonText(nest(MAX_DEPTH_PROBE))),
    raw('more than 256 kB', `{"a":"${'x'.repeat(300_000)}"}`),
    raw('constructor.prototype', '{"constructor":{"prototype":{"polluted":true}}}'),
    variant('whole body: duplicate keys, the last one spoiled', (s) => {
      const text = validJson(s);
      s.body = { kind: 'raw', contentType: JSON_TYPE, data: text.replace(/}$/, text.length > 2 ? ',"hostile":1,"hostile":{"a":[]}}' : '"hostile":1}') };
    }),
    variant('whole body: byte order mark', (s) => (s.body = { kind: 'raw', contentType: JSON_TYPE, data: `\ufeff${validJson(s)}` })),
    variant('whole body: as text/plain', (s) => (s.body = { kind: 'raw', contentType: 'text/plain', data: validJson(s) })),
    variant('whole body: as a form', (s) => (s.body = { kind: 'raw', contentType: 'application/x-www-form-urlencoded', data: 'a=1&b=2' })),
    variant('whole body: JSON with charset=latin1', (s) => (s.body = { kind: 'raw', contentType: 'application/json; charset=latin1', data: validJson(s) })),
    variant('whole body: JSON with charset=utf-16', (s) => (s.body = { kind: 'raw', contentType: 'application/json; charset=utf-16', data: validJson(s) })),
    variant('whole body: content type vnd+json', (s) => (s.body = { kind: 'raw', contentType: 'application/vnd.api+json', data: validJson(s) })),
    variant('whole body: XML', (s) => (s.body = { kind: 'raw', contentType: 'application/xml', data: '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>' })),
  ];
  if (!multipart) {
    cases.push(raw('multipart form', multipartBody([{ name: 'a', value: '1' }]), `multipart/form-data; boundary=${MULTIPART_BOUNDARY}`));
  }
  return cases;
}

/** Just past the API's depth cap (32). */
const MAX_DEPTH_PROBE = 40;

/** The request as sent: path filled, query joined, body written. */
function encode(op: Operation, s: Shape): RequestParts {
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => s.path[name]);
  const query = s.query.map(([k, v]) => (v === null ? encodeURIComponent(k) : `${encodeURIComponent(k)}=${v}`)).join('&');
  const url = query ? `${path}?${query}` : path;
  const headers = { ...s.headers };
  switch (s.body.kind) {
    case 'none':
      return { url, headers };
    case 'json':
      return { url, headers, body: { contentType: JSON_TYPE, data: toJsonText(s.body.value) } };
    case 'multipart':
      return { url, headers, body: { contentType: `multipart/form-data; boundary=${MULTIPART_BOUNDARY}`, data: multipartBody(s.body.parts) } };
    case 'raw':
      return { url, headers, body: { contentType: s.body.contentType, data: s.body.data } };
  }
}
