import {
  BadRequestException,
  createParamDecorator,
  ExecutionContext,
  PipeTransform,
  Type,
  ValidationPipe,
} from '@nestjs/common';

/**
 * The raw request body. A custom parameter, so the global validation (which rejects unknown fields) leaves it to
 * the pipe given with it.
 */
const RawBody = createParamDecorator((_data: unknown, ctx: ExecutionContext): unknown => ctx.switchToHttp().getRequest<{ body?: unknown }>().body);

/**
 * Validates only `fields` of a body that may carry anything else, into a `type` instance. For the admin routes
 * that receive the whole `Video` object the client holds (contract: "everything else in the body is ignored"):
 * the other fields are dropped unread instead of answering 400 as the global whitelist would.
 */
export class PickFieldsPipe<T extends object> implements PipeTransform<unknown, Promise<T>> {
  private readonly validation: ValidationPipe;

  constructor(
    private readonly type: Type<T>,
    private readonly fields: readonly (keyof T & string)[],
  ) {
    // Nested objects (a category sent with its video_count) lose their unknown fields too, without a 400.
    this.validation = new ValidationPipe({ whitelist: true, transform: true });
  }

  async transform(value: unknown): Promise<T> {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new BadRequestException('The body must be a JSON object');
    }
    const body = value as Record<string, unknown>;
    const picked = Object.fromEntries(this.fields.filter((field) => Object.hasOwn(body, field)).map((field) => [field, body[field]]));
    return (await this.validation.transform(picked, { type: 'body', metatype: this.type })) as T;
  }
}

/** `@PickedBody(Dto, FIELDS)`: the body's `FIELDS`, validated as `Dto`; its other fields ignored. */
export const PickedBody = <T extends object>(type: Type<T>, fields: readonly (keyof T & string)[]) =>
  RawBody(new PickFieldsPipe(type, fields));
