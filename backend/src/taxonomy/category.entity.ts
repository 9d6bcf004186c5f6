import { Entity } from 'typeorm';
import { Taxon } from './taxon';

@Entity({ name: 'categories' })
export class Category extends Taxon {}
