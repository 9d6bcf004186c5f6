import type { Schema } from './openapi';

/** A JSON token sent exactly as written (numbers that JavaScript cannot hold: `1e400`, `9007199254740993`, `-0`). */
export class RawJson {
  constructor(readonly text: string) {}
}

export interface Hostile {
  label: string;
  value: unknown;
}

/** Longer than any field allows and than most columns hold, yet well within the 256 kB body limit. */
export const OVERSIZED = 100_000;
/**
 * In a URL (path or query) oversized stops at 8 kB: past Node's 16 kB header limit the HTTP parser itself answers
 * 431 without a body before the app sees anything (in the container stack nginx answers 414 first).
 */
export const OVERSIZED_IN_URL = 8_000;
/** At most this many hostile values per field, and per field of a nested object or array item. */
export const MAX_PER_FIELD = 24;
export const MAX_PER_NESTED_FIELD = 6;

const h = (label: string, value: unknown): Hostile => ({ label, value });

/** Values of another JSON type than the schema's (string ↔ number ↔ boolean ↔ array ↔ object ↔ null). */
function otherTypes(type: string | undefined): Hostile[] {
  const all: [string, Hostile[]][] = [
    ['string', [h('string "x"', 'x'), h('numeric string "1"', '1')]],
    ['number', [h('number 0', 0), h('number 7', 7)]],
    ['boolean', [h('true', true), h('false', false)]],
    ['array', [h('empty array', []), h('array [1, "x"]', [1, 'x'])]],
    ['object', [h('empty object', {}), h('object {"a":1}', { a: 1 })]],
  ];
  const same = type === 'integer' ? 'number' : type;
  return [h('null', null), ...all.filter(([t]) => t !== same).flatMap(([, values]) => values)];
}

/** Strings that break naive code: broken Unicode, control characters, injection-shaped text, lengths. */
export function hostileStrings(schema: Schema = {}, oversized = OVERSIZED): Hostile[] {
  const values = [
    h('empty string', ''),
    h('blank', '   '),
    h(`${oversized} characters`, 'A'.repeat(oversized)),
    h(`${oversized} astral characters`, '🌴'.repeat(oversized / 2)),
    h('control characters', 'a\u0000b\u0001c\u0008d\u001be\u007f'),
    h('CR LF header injection', 'a\r\nSet-Cookie: x=1'),
    h('lone high surrogate', '\ud800'),
    h('lone low surrogate in text', 'ab\udfffcd'),
    h('RTL override and zero-width', '\u202eabc\u200b\ufeff'),
    h('combining marks', `e${'\u0301'.repeat(200)}`),
    h('SQL quote', "'; DROP TABLE videos; --"),
    h('path traversal', '../../../../etc/passwd'),
    h('percent-encoded NUL', '%00'),
    h('HTML', '<script>alert(1)</script>'),
  ];
  if (schema.maxLength !== undefined) values.push(h('maxLength + 1', 'x'.repeat(schema.maxLength + 1)));
  if (schema.minLength !== undefined && schema.minLength > 1) values.push(h('minLength - 1', 'x'.repeat(schema.minLength - 1)));
  if (schema.enum) values.push(h('not in the enum', 'not-in-enum'), h('enum value in upper case', String(schema.enum[0]).toUpperCase()));
  if (schema.format === 'uuid') values.push(h('nil uuid', '00000000-0000-0000-0000-000000000000'), h('not a uuid', 'not-a-uuid'));
  if (schema.format === 'date-time') {
    values.push(h('impossible date', '2024-02-30T25:61:00Z'), h('year 99999', '+099999-01-01T00:00:00Z'), h('year 0', '0000-01-01T00:00:00Z'));
  }
  return values;
}

/** Numbers out of every range: negative, fractional, huge, beyond double precision, infinite. */
export function hostileNumbers(schema: Schema = {}): Hostile[] {
  const values = [
    h('-1', -1),
    h('0', 0),
    h('-0', new RawJson('-0')),
    h('1.5', 1.5),
    h('1e-308', 1e-308),
    h('2^31', 2 ** 31),
    h('-2^31 - 1', -(2 ** 31) - 1),
    h('2^53 + 1', new RawJson('9007199254740993')),
    h('1e308', 1e308),
    h('-1e308', -1e308),
    h('1e400 (Infinity)', new RawJson('1e400')),
    h('1 followed by 400 zeros', new RawJson(`1${'0'.repeat(400)}`)),
  ];
  if (schema.maximum !== undefined) values.push(h('maximum + 1', schema.maximum + 1));
  if (schema.minimum !== undefined) values.push(h('minimum - 1', schema.minimum - 1));
  return values;
}

/** Hostile values for a field of this schema (its own type's edge cases first, then other types), at most `max`. */
export function hostileValues(schema: Schema, validItem: () => unknown, max = MAX_PER_FIELD): Hostile[] {
  const type = schema.type ?? (schema.properties ? 'object' : undefined);
  let values: Hostile[];
  switch (type) {
    case 'string':
      values = schema.format === 'binary' ? [] : [...hostileStrings(schema), ...otherTypes(type)];
      break;
    case 'number':
    case 'integer':
      values = [...hostileNumbers(schema), ...otherTypes(type)];
      break;
    case 'boolean':
      values = [h('string "true"', 'true'), h('number 1', 1), ...otherTypes(type)];
      break;
    case 'array':
      values = [
        h('array of null', [null]),
        h('nested empty arrays', [[], [[]]]),
        h('array of objects', [{}, { a: 1 }]),
        h('10000 valid items', Array.from({ length: 10_000 }, validItem)),
        h('one valid item twice', twice(validItem())),
        ...(schema.maxItems !== undefined ? [h('maxItems + 1 valid items', Array.from({ length: schema.maxItems + 1 }, validItem))] : []),
        ...otherTypes(type),
      ];
      break;
    case 'object':
      values = [h('extra key', { hostile_extra: 1 }), h('nested 30 levels', nest(30)), h('__proto__ key', new RawJson('{"__proto__":{"polluted":true}}')), ...otherTypes(type)];
      break;
    default:
      values = otherTypes(undefined);
  }
  return sample(values, max);
}

const twice = (item: unknown) => [item, item];

/** `[[[…]]]` `depth` levels deep (the API caps bodies at 32 levels; a field adds one). */
export function nest(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

/** At most `max` of `values`, spread evenly and always keeping the first (the type's own edge cases come first). */
export function sample<T>(values: T[], max: number): T[] {
  if (values.length <= max) return values;
  const step = values.length / max;
  return Array.from({ length: max }, (_, i) => values[Math.floor(i * step)]);
}

/** Path segment values: ids that are not ids, encodings that do not decode, other members' resources. */
export const HOSTILE_PATH_VALUES: Hostile[] = [
  h('-1', '-1'),
  h('0', '0'),
  h('1e308', '1e308'),
  h('40 nines', '9'.repeat(40)),
  h('2^31', String(2 ** 31)),
  h('1.5', '1.5'),
  h('hex', '0x10'),
  h('leading zero', '01'),
  h('letters', 'abc'),
  h('%00', '%00'),
  h('invalid UTF-8 (%E9)', '%E9'),
  h('encoded lone surrogate (%ED%A0%80)', '%ED%A0%80'),
  h('broken escape (%ZZ)', '%ZZ'),
  h('unicode', encodeURIComponent('é🌴')),
  h('encoded slash traversal', '..%2F..%2Fetc%2Fpasswd'),
  h('space', '%20'),
  h('SQL quote', encodeURIComponent("1' OR '1'='1")),
  h(`${OVERSIZED_IN_URL} characters`, '9'.repeat(OVERSIZED_IN_URL)),
];

/** Query values, written raw into the query string (so broken escapes reach the server as sent). */
export const HOSTILE_QUERY_VALUES: Hostile[] = [
  h('empty', ''),
  h('-1', '-1'),
  h('0', '0'),
  h('1.5', '1.5'),
  h('1e308', '1e308'),
  h('40 nines', '9'.repeat(40)),
  h('NaN', 'NaN'),
  h('letters', 'abc'),
  h('true', 'true'),
  h('%00', '%00'),
  h('invalid UTF-8 (%E9)', '%E9'),
  h('encoded lone surrogate', '%ED%A0%80'),
  h('truncated escape', '%E0%A4%A'),
  h('control characters', '%01%08%1B%7F'),
  h('unicode', encodeURIComponent('é🌴\u202e')),
  h('SQL quote', encodeURIComponent("'; DROP TABLE videos; --")),
  h(`${OVERSIZED_IN_URL} characters`, 'A'.repeat(OVERSIZED_IN_URL)),
];

/** Header values (latin-1 only: Node refuses to send anything else, as browsers do). */
export const HOSTILE_HEADER_VALUES: Hostile[] = [
  h('empty', ''),
  h('garbage', 'abc'),
  h('unquoted', '1-2-3'),
  h('negative numbers', '"-1--1--1"'),
  h('huge numbers', `"${'9'.repeat(40)}-${'9'.repeat(40)}-1e308"`),
  h('wildcard', '*'),
  h('list', '"1-0-0", "2-0-0"'),
  h('latin-1', '"ÿ-é-ñ"'),
  h('4000 characters', `"${'1'.repeat(4000)}"`),
];

const PLACEHOLDER = (i: number) => `\u0000raw${i}\u0000`;

/** JSON text of `value`, with RawJson tokens written as they are. */
export function toJsonText(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof RawJson) {
      raws.push(v.text);
      return PLACEHOLDER(raws.length - 1);
    }
    return v;
  });
  return raws.reduce((acc, raw, i) => acc.replace(JSON.stringify(PLACEHOLDER(i)), raw), text ?? '');
}

export interface MultipartPart {
  name: string;
  value: string | Buffer;
  /** Sends the part as a file. */
  filename?: string;
  contentType?: string;
}

export const MULTIPART_BOUNDARY = '----hostile-input-boundary';

/** A multipart/form-data body written by hand, so that broken forms can be sent too. */
export function multipartBody(parts: MultipartPart[], boundary = MULTIPART_BOUNDARY): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}`;
    const type = part.filename !== undefined ? `\r\nContent-Type: ${part.contentType ?? 'application/octet-stream'}` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`), Buffer.from(part.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}
