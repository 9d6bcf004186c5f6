import type { RoleId } from '../common/decorators/auth.decorators';
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export type { RoleId };

@Entity({ name: 'users' })
export class User {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 254 })
  email: string;

  @Column({ name: 'password_hash', type: 'text', select: false })
  passwordHash: string;

  @Column({ name: 'display_name', type: 'varchar', length: 40 })
  displayName: string;

  @Column({ name: 'role_id', type: 'varchar', length: 16, nullable: true })
  roleId: RoleId | null;

  @Column({ name: 'history_paused', type: 'boolean', default: false })
  historyPaused: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
