import type { VideoCard } from '@/lib/api/types';
import { useRemoveFromList, type RemovableList } from '../api/remove-from-list';

interface RemoveFromListButtonProps {
  list: RemovableList;
  video: VideoCard;
  /** The title the card shows, which names the button for screen readers. */
  title: string;
  userId: string;
}

const LIST_NAMES: Record<RemovableList, string> = { bookmarks: 'bookmarks', 'watch-later': 'watch later', likes: 'liked videos' };

/** Takes one video off the list; the card goes once the API agreed, and a failure says so on the card. */
export function RemoveFromListButton({ list, video, title, userId }: RemoveFromListButtonProps) {
  const remove = useRemoveFromList(list, userId);
  return (
    <div className="card-actions">
      <button
        className="button button--quiet"
        type="button"
        aria-label={`Remove ${title} from ${LIST_NAMES[list]}`}
        disabled={remove.isPending}
        onClick={() => remove.mutate(video)}
      >
        {remove.isPending ? 'Removing…' : 'Remove'}
      </button>
      {remove.isError && (
        <p className="card-actions__error" role="alert">
          Could not remove it. Try again.
        </p>
      )}
    </div>
  );
}
