import { TAXON_NAME_MAX_LENGTH } from '@hunktube/shared';
import { Column, CreateDateColumn, PrimaryColumn } from 'typeorm';

/** What categories and performers share: an id derived from the name by `slugify`, and the name. */
export abstract class Taxon {
  @PrimaryColumn({ type: 'varchar', length: TAXON_NAME_MAX_LENGTH })
  id: string;

  @Column({ type: 'varchar', length: TAXON_NAME_MAX_LENGTH })
  name: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
