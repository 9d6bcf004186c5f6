import { useLayoutEffect, useRef, useState, type DragEvent } from 'react';
import { VideoCard } from '@/components/ui/video-card';
import type { Brand, VideoCard as VideoCardData } from '@/lib/api/types';
import { brandTitle } from '@/lib/site';
import { useRemovePlaylistVideo } from '../api/remove-playlist-video';
import { useReorderPlaylist } from '../api/reorder-playlist';
import { moveItem } from '../utils/reorder';

interface PlaylistVideosProps {
  playlistId: number;
  userId: string;
  videos: VideoCardData[];
  brand: Brand | undefined;
  imageHost: string | undefined;
}

type Control = 'up' | 'down' | 'remove';

/** Where focus goes once the list has re-rendered after a move or a removal. */
interface FocusRequest {
  id: number;
  control: Control;
  /** True once the list shows the change. */
  ready: (videos: VideoCardData[]) => boolean;
}

/** A video in the playlist context, so that the watch page walks the playlist from it. */
export const inPlaylist = (videoId: number, playlistId: number) =>
  `/video/${videoId}?context=playlist&playlist=${playlistId}`;

/**
 * The playlist's videos in order. They are reordered by dragging a card, or with Move up / Move down (keyboard
 * and touch); every change sends the whole new order. A change that fails goes back and says so.
 */
export function PlaylistVideos({ playlistId, userId, videos, brand, imageHost }: PlaylistVideosProps) {
  const reorder = useReorderPlaylist(playlistId, userId);
  const remove = useRemovePlaylistVideo(playlistId, userId);
  const [announcement, setAnnouncement] = useState('');
  const [dragging, setDragging] = useState<number | null>(null);
  const [dropIndex, setDropIndex] = useState<number | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const focusRequest = useRef<FocusRequest | null>(null);

  // React moves a card's element when the order changes, and a moved element loses focus: give it back.
  useLayoutEffect(() => {
    const request = focusRequest.current;
    if (!request || !request.ready(videos)) return;
    focusRequest.current = null;
    const find = (control: Control) =>
      list.current?.querySelector<HTMLButtonElement>(`[data-video="${request.id}"][data-control="${control}"]:not(:disabled)`);
    // At either end one arrow is disabled: the other one takes the focus.
    const fallback: Control = request.control === 'up' ? 'down' : request.control === 'down' ? 'up' : 'remove';
    (find(request.control) ?? find(fallback))?.focus();
  }, [videos]);

  const titleOf = (video: VideoCardData) => brandTitle(video, brand);

  const move = (from: number, to: number, control?: Control) => {
    if (from < 0 || to < 0 || to >= videos.length || from === to) return;
    const video = videos[from];
    const next = moveItem(videos, from, to);
    focusRequest.current = control
      ? { id: video.id, control, ready: (shown) => shown.findIndex((item) => item.id === video.id) === to }
      : null;
    setAnnouncement(`Moved ${titleOf(video)} to position ${to + 1} of ${videos.length}.`);
    remove.reset();
    reorder.mutate(next.map((item) => item.id));
  };

  const removeVideo = (index: number) => {
    const video = videos[index];
    const neighbour = videos[index + 1] ?? videos[index - 1];
    focusRequest.current = neighbour
      ? { id: neighbour.id, control: 'remove', ready: (shown) => !shown.some((item) => item.id === video.id) }
      : null;
    setAnnouncement('');
    reorder.reset();
    remove.mutate(video.id, {
      onSuccess: () => setAnnouncement(`Removed ${titleOf(video)} from the playlist.`),
    });
  };

  const endDrag = () => {
    setDragging(null);
    setDropIndex(null);
  };

  const onDrop = (event: DragEvent, index: number) => {
    event.preventDefault();
    const from = videos.findIndex((video) => video.id === dragging);
    endDrag();
    move(from, index);
  };

  const failedRemoval = remove.isError ? videos.find((video) => video.id === remove.variables) : undefined;
  const notice = reorder.isError
    ? 'The new order could not be saved, so the playlist is back in its previous order.'
    : remove.isError
      ? `${failedRemoval ? titleOf(failedRemoval) : 'The video'} could not be removed from the playlist.`
      : null;

  return (
    <>
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
      {notice && (
        <div className="lists__notice" role="alert">
          <p>{notice} Try again.</p>
          <button
            className="button button--quiet"
            type="button"
            onClick={() => {
              reorder.reset();
              remove.reset();
            }}
          >
            Dismiss
          </button>
        </div>
      )}
      <p className="playlist-videos__hint">Drag a video, or use its arrows, to change the order.</p>
      <ol className="playlist-videos" ref={list} aria-label="Videos in this playlist">
        {videos.map((video, index) => {
          const title = titleOf(video);
          const removing = remove.isPending && remove.variables === video.id;
          const classes = ['playlist-videos__item'];
          if (dragging === video.id) classes.push('playlist-videos__item--dragging');
          if (dropIndex === index && dragging !== video.id) classes.push('playlist-videos__item--drop');
          return (
            <li
              key={video.id}
              className={classes.join(' ')}
              draggable
              onDragStart={(event) => {
                setDragging(video.id);
                if (event.dataTransfer) {
                  event.dataTransfer.effectAllowed = 'move';
                  // Firefox starts a drag only when it carries data.
                  event.dataTransfer.setData('text/plain', String(video.id));
                }
              }}
              onDragOver={(event) => {
                if (dragging === null) return;
                event.preventDefault();
                if (event.dataTransfer) event.dataTransfer.dropEffect = 'move';
                if (dropIndex !== index) setDropIndex(index);
              }}
              onDrop={(event) => onDrop(event, index)}
              onDragEnd={endDrag}
            >
              <span className="playlist-videos__position" aria-hidden="true">
                {index + 1}
              </span>
              <VideoCard
                video={video}
                brand={brand}
                imageHost={imageHost}
                to={inPlaylist(video.id, playlistId)}
                footer={
                  <div className="card-actions">
                    <button
                      className="icon-button icon-button--small playlist-videos__arrow"
                      type="button"
                      data-video={video.id}
                      data-control="up"
                      aria-label={`Move ${title} up`}
                      disabled={index === 0}
                      onClick={() => move(index, index - 1, 'up')}
                    >
                      <ArrowIcon direction="up" />
                    </button>
                    <button
                      className="icon-button icon-button--small playlist-videos__arrow"
                      type="button"
                      data-video={video.id}
                      data-control="down"
                      aria-label={`Move ${title} down`}
                      disabled={index === videos.length - 1}
                      onClick={() => move(index, index + 1, 'down')}
                    >
                      <ArrowIcon direction="down" />
                    </button>
                    <button
                      className="button button--quiet"
                      type="button"
                      data-video={video.id}
                      data-control="remove"
                      aria-label={`Remove ${title} from this playlist`}
                      disabled={removing}
                      onClick={() => removeVideo(index)}
                    >
                      {removing ? 'Removing…' : 'Remove'}
                    </button>
                  </div>
                }
              />
            </li>
          );
        })}
      </ol>
    </>
  );
}

const ArrowIcon = ({ direction }: { direction: 'up' | 'down' }) => (
  <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <path d={direction === 'up' ? 'M12 19V5M5 12l7-7 7 7' : 'M12 5v14M5 12l7 7 7-7'} />
  </svg>
);
