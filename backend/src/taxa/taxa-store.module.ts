import { Module } from '@nestjs/common';
import { TaxaRepository } from './taxa.repository';

/** The owner of `categories` and `performers`: needs only the database (the worker and the CLIs load it). */
@Module({
  providers: [TaxaRepository],
  exports: [TaxaRepository],
})
export class TaxaStoreModule {}
