import { ArgumentMetadata, BadRequestException, ValidationPipe } from '@nestjs/common';
import { NUL_REFUSED, PROTOTYPE_KEYS, unknownProperty } from '../http/request-guards';

/**
 * The global validation: whitelist, reject unknown fields, transform into DTOs. Route params stay strings
 * here so that their own parse pipes see exactly what was sent ("1e3" is not an id, though Number() says 1000).
 * Before that, what the whitelist cannot see is refused in any body, query or multipart field (a JSON body has
 * had the same checks as it was parsed): keys named `__proto__`, `constructor` or `prototype`, as unknown fields
 * are, and text with a NUL character, which PostgreSQL's text cannot hold.
 */
export class StrictValidationPipe extends ValidationPipe {
  constructor() {
    super({ whitelist: true, forbidNonWhitelisted: true, transform: true });
  }

  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type !== 'custom') refuseHidden(value, 0);
    return super.transform(value, metadata);
  }

  protected override transformPrimitive(value: unknown, metadata: ArgumentMetadata): unknown {
    return metadata.type === 'param' ? value : super.transformPrimitive(value, metadata);
  }
}

function refuseHidden(value: unknown, depth: number): void {
  if (typeof value === 'string') {
    if (value.includes('\0')) throw new BadRequestException(NUL_REFUSED);
    return;
  }
  if (value === null || typeof value !== 'object' || depth > 32) return;
  for (const key of Object.keys(value)) {
    if (PROTOTYPE_KEYS.has(key)) throw new BadRequestException(unknownProperty(key));
    if (key.includes('\0')) throw new BadRequestException(NUL_REFUSED);
    refuseHidden((value as Record<string, unknown>)[key], depth + 1);
  }
}
