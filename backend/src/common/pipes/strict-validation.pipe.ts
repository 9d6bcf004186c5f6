import { ArgumentMetadata, ValidationPipe } from '@nestjs/common';

/**
 * The global validation: whitelist, reject unknown fields, transform into DTOs. Route params stay strings
 * here so that their own parse pipes see exactly what was sent ("1e3" is not an id, though Number() says 1000).
 */
export class StrictValidationPipe extends ValidationPipe {
  constructor() {
    super({ whitelist: true, forbidNonWhitelisted: true, transform: true });
  }

  protected override transformPrimitive(value: unknown, metadata: ArgumentMetadata): unknown {
    return metadata.type === 'param' ? value : super.transformPrimitive(value, metadata);
  }
}
