import { Column, CreateDateColumn, PrimaryColumn } from 'typeorm';

/** What categories and performers share: an id derived from the name by `slugify`, and the name. */
export abstract class Taxon {
  @PrimaryColumn({ type: 'varchar', length: 100 })
  id: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
