import { Entity } from 'typeorm';
import { UserVideoEntry } from './user-video-entry';

@Entity({ name: 'watch_later_items' })
export class WatchLaterItem extends UserVideoEntry {}
