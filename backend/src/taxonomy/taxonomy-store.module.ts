import { Module } from '@nestjs/common';
import { TaxaRepository } from './taxa.repository';

/** Look-ups of categories and performers that need only the database (the worker and the CLIs load it). */
@Module({
  providers: [TaxaRepository],
  exports: [TaxaRepository],
})
export class TaxonomyStoreModule {}
