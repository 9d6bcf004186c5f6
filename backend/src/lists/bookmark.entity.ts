import { Entity } from 'typeorm';
import { UserVideoEntry } from './user-video-entry';

@Entity({ name: 'bookmarks' })
export class Bookmark extends UserVideoEntry {}
