import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import {
  ApiExtraModels, ApiResponse, DECORATORS, getSchemaPath, type ApiResponseOptions, type OpenAPIObject, type ResponseObject, type SchemaObject,
} from '@nestjs/swagger';
import { ErrorResponseDto } from './error-response.dto';

/**
 * The OpenAPI side of who may call a route and of what the HTTP layer answers before the route runs
 * (docs/api-conventions.md). `@ApiPublic()`, `@ApiMember()` or `@ApiAdmin()` on a controller covers each of its
 * routes; on a route, it sets that route apart from its controller's (which must still carry one). They document,
 * they do not enforce: `@Public()` and `@Roles()` do, and the conformance test holds the two together.
 */

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 503;

/**
 * A failure of this status, with the contract's error body; several for one status add up their descriptions.
 * `codes`: the `errorCode`s this answer may carry (the feature's `*ErrorCode` values): the route's schema for the
 * status then lists exactly those (and the document's ErrorResponse all of them, see `withErrorCodes`).
 * On a controller, it is each of its routes' (Swagger would let a route's own answer of that status replace it).
 */
export function ApiError(status: ErrorStatus, description: string, codes: readonly string[] = []): MethodDecorator & ClassDecorator {
  return (target: object, key?: string | symbol, descriptor?: PropertyDescriptor) => {
    if (descriptor) addError(target, key as string, descriptor, status, description, codes);
    else forEachRoute(target, (prototype, name, route) => addError(prototype, name, route, status, description, codes));
  };
}

/** Who may call: anyone, a signed-in member (any role), or an admin. */
type Access = 'public' | 'member' | 'admin';

interface AccessOptions {
  /** Counted in the read budget (RATE_LIMIT_READ): every read but health, robots.txt and the sitemaps. */
  readBudget?: boolean;
  /** Needs the database or Redis, so may answer 503 while one is down. */
  dependencies?: boolean;
}

/** Anyone may call (`security: []`); a valid token only says who calls. */
export const ApiPublic = (options: AccessOptions = {}) => ApiAccess('public', options);
/** A signed-in member of any role: 401 without a valid token (bearer or the session cookie). */
export const ApiMember = (options: AccessOptions = {}) => ApiAccess('member', options);
/** Admins only: 401 without a valid token, 403 for any other role. */
export const ApiAdmin = (options: AccessOptions = {}) => ApiAccess('admin', options);

const ACCESS = 'hunktube/openApiAccess';

/** Either session: the bearer token or the cookie (`access_token`, `__Host-access_token` in production). */
const SIGNED_IN = [{ bearer: [] }, { cookie: [] }];

function ApiAccess(access: Access, options: AccessOptions): MethodDecorator & ClassDecorator {
  const chosen = { access, readBudget: options.readBudget ?? true, dependencies: options.dependencies ?? true };
  return (target: object, key?: string | symbol, descriptor?: PropertyDescriptor) => {
    if (descriptor) {
      // A route's own: applied with its controller's, once every decorator of the route has run.
      Reflect.defineMetadata(ACCESS, chosen, descriptor.value as object);
      return;
    }
    forEachRoute(target, (prototype, name, route) => {
      const own = Reflect.getMetadata(ACCESS, route.value as object) as typeof chosen | undefined;
      documentRoute(prototype, name, route, own ?? chosen);
    });
  };
}

/** Calls `fn` for each route handler of a controller class. */
function forEachRoute(controller: object, fn: (prototype: object, name: string, route: PropertyDescriptor) => void): void {
  const prototype = (controller as { prototype: object }).prototype;
  for (const name of Object.getOwnPropertyNames(prototype)) {
    const route = Object.getOwnPropertyDescriptor(prototype, name);
    // The constructor is the controller, which has a path too.
    const isRoute = name !== 'constructor' && typeof route?.value === 'function' && Reflect.hasMetadata(PATH_METADATA, route.value);
    if (isRoute) fn(prototype, name, route as PropertyDescriptor);
  }
}

type Answers = Array<[ErrorStatus, string]>;

/** What is answered before a route runs: the guards (common/guards), and the middleware of app.factory.ts. */
const SIGNED_OUT: Answers = [[401, 'No valid token: not signed in, a bad token, or a session that has ended']];
const NOT_ADMIN: Answers = [[403, 'Signed in, but not an admin']];
const BAD_READ: Answers = [
  [
    400,
    'Invalid input, named in `error`: a path or query parameter out of its limits (or, on a route that takes a query, ' +
      'one it does not know), or a NUL character in the path or query',
  ],
];
const READ_BUDGET: Answers = [[429, 'Too many reads from this network (RATE_LIMIT_READ); Retry-After says when to try again']];
const BAD_WRITE: Answers = [
  [
    400,
    'Invalid input, named in `error`: a field missing, unknown or out of its limits, or a body that is not well-formed JSON, ' +
      'nests too deep or holds a NUL character',
  ],
  [403, 'A write sent from another site (Sec-Fetch-Site or Origin): refused'],
  [413, 'A JSON body over 256 kB'],
  [415, 'A body that is not JSON (nor multipart on an upload route)'],
  [
    429,
    'Too many writes from this network (RATE_LIMIT_WRITE; RATE_LIMIT_AUTH for sign-up, sign-in and account deletion); ' +
      'Retry-After says when to try again',
  ],
];
const DEPENDENCY_DOWN: Answers = [[503, 'The database or Redis is down: try again after Retry-After']];
const NOT_MODIFIED = 'Not modified: the copy whose ETag was sent in If-None-Match is current';

/** Adds a route's security, and the answers its access and its HTTP method bring. */
function documentRoute(prototype: object, name: string, route: PropertyDescriptor, chosen: Required<AccessOptions> & { access: Access }): void {
  const { access, readBudget, dependencies } = chosen;
  const handler = route.value as object;
  const operation = (Reflect.getMetadata(DECORATORS.API_OPERATION, handler) ?? {}) as object;
  // On the operation itself: Swagger's own security metadata leaves out an empty list, which `security: []` is.
  Reflect.defineMetadata(DECORATORS.API_OPERATION, { ...operation, security: access === 'public' ? [] : SIGNED_IN }, handler);

  const read = Reflect.getMetadata(METHOD_METADATA, handler) === RequestMethod.GET;
  const answers: Answers = [
    ...(access === 'public' ? [] : SIGNED_OUT),
    ...(access === 'admin' ? NOT_ADMIN : []),
    ...(read ? [...BAD_READ, ...(readBudget ? READ_BUDGET : [])] : BAD_WRITE),
    ...(dependencies ? DEPENDENCY_DOWN : []),
  ];
  for (const [status, description] of answers) addError(prototype, name, route, status, description);
  if (read) ApiResponse({ status: 304, description: NOT_MODIFIED })(prototype, name, route);
}

const ERROR_CODES = 'hunktube/errorCodes';

function addError(
  prototype: object, name: string, route: PropertyDescriptor, status: ErrorStatus, description: string, codes: readonly string[] = [],
): void {
  ApiExtraModels(ErrorResponseDto)(prototype, name, route);
  // The codes declared for this status so far, whichever decorator comes last (a controller's run after its routes').
  const handler = route.value as object;
  const declared = { ...((Reflect.getMetadata(ERROR_CODES, handler) ?? {}) as Record<number, string[]>) };
  declared[status] = [...new Set([...(declared[status] ?? []), ...codes])];
  Reflect.defineMetadata(ERROR_CODES, declared, handler);
  // A new object each time: ApiResponse keeps (and amends) the one it is given. The body is JSON whatever the
  // route's success answers (the sitemaps' XML, say): content, not type, which would follow the route's @ApiProduces.
  const response: ApiResponseOptions = {
    status,
    description,
    content: { 'application/json': { schema: declared[status].length ? codedError(declared[status]) : { $ref: getSchemaPath(ErrorResponseDto) } } },
  };
  ApiResponse(response)(prototype, name, route);
}

/** The error body of an answer that may carry these codes: ErrorResponse with `errorCode` narrowed to them. */
function codedError(codes: string[]): SchemaObject {
  return {
    type: 'object',
    required: ['error', 'statusCode'],
    properties: {
      error: { type: 'string', description: 'What went wrong, for people' },
      errorCode: { type: 'string', enum: [...codes].sort(), description: 'For programs: which of this answer’s failures it is' },
      statusCode: { type: 'integer', minimum: 400, maximum: 599, description: 'The status of the answer' },
    },
  };
}

/**
 * The document's ErrorResponse lists every `errorCode` the routes declare (each feature's own, in its
 * `*-errors.ts`), so that the client's type of it is the exact union; called on the document once it is built.
 */
export function withErrorCodes(document: OpenAPIObject): OpenAPIObject {
  const codes = new Set<string>();
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations as Record<string, { responses?: Record<string, ResponseObject> }>)) {
      for (const response of Object.values(operation?.responses ?? {})) {
        const schema = response.content?.['application/json']?.schema as SchemaObject | undefined;
        const errorCode = schema?.properties?.errorCode as SchemaObject | undefined;
        for (const code of (errorCode?.enum ?? []) as string[]) codes.add(code);
      }
    }
  }
  const errorResponse = document.components?.schemas?.ErrorResponse as SchemaObject | undefined;
  const property = errorResponse?.properties?.errorCode as SchemaObject | undefined;
  if (property) property.enum = [...codes].sort();
  return document;
}
