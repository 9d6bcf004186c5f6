import { Entity } from 'typeorm';
import { UserVideoEntry } from './user-video-entry';

@Entity({ name: 'likes' })
export class Like extends UserVideoEntry {}
