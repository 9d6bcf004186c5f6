import { Entity } from 'typeorm';
import { Taxon } from './taxon';

@Entity({ name: 'performers' })
export class Performer extends Taxon {}
