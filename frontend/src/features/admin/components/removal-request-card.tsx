import { Link } from 'react-router';
import type { RemovalReason, RemovalRequest } from '@/lib/api/types';
import { formatUploadAge } from '@/lib/format';

export type RemovalRequestVideo = RemovalRequest['videos'][number];

/** What the sender says, in the admins' words (the form asks in the sender's own, in the first person). */
export const REMOVAL_REASON_LABELS: Record<RemovalReason, string> = {
  underage: 'Shows someone under 18',
  'no-consent': 'Sender appears in it and did not consent',
  illegal: 'Shows non-consensual or illegal acts',
  copyright: 'Sender owns the copyright',
  other: 'Other',
};

/** A video's status when it is not the usual published one ('ready', which goes unsaid). */
const VIDEO_STATUS_LABELS: Record<Exclude<NonNullable<RemovalRequestVideo['status']>, 'ready'>, string> = {
  processing: 'Processing',
  failed: 'Processing failed',
};

/** Whether the contact becomes a mailto link; nothing that would change the link's meaning (?, #, &) gets in. */
const EMAIL = /^[\w.+'-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+$/i;

const fullDate = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
};

/** "3 days ago", with the exact moment on hover. */
const When = ({ iso }: { iso: string }) => (
  <time dateTime={iso} title={fullDate(iso)}>
    {formatUploadAge(iso)}
  </time>
);

interface RemovalRequestCardProps {
  request: RemovalRequest;
  /** True while this request is being resolved or dismissed. */
  closing: boolean;
  /** The video whose deletion is under way, if any. */
  deletingVideoId: number | null;
  onClose: (state: 'resolved' | 'dismissed') => void;
  onDeleteVideo: (video: RemovalRequestVideo) => void;
}

/**
 * One removal request: its number, reason, when it came (and how often and by how many senders it was reported
 * again since), from whom, what the first sender wrote, the videos it names
 * (each with a way to edit or delete it), and either the buttons that close it or how it was closed.
 */
export function RemovalRequestCard({ request, closing, deletingVideoId, onClose, onDeleteVideo }: RemovalRequestCardProps) {
  const { id, contact, details } = request;
  const titleId = `removal-request-${id}`;

  return (
    <article className="removal" aria-labelledby={titleId} tabIndex={-1} data-request-id={id}>
      <header className="removal__head">
        <h2 className="removal__title" id={titleId}>
          <span className="removal__number">#{id}</span> {REMOVAL_REASON_LABELS[request.reason]}
        </h2>
        {request.urgent && <span className="removal__urgent">Urgent</span>}
        <p className="removal__received">
          Received <When iso={request.created_at} />
        </p>
        {request.reports > 1 && (
          <p className="removal__reports">
            Reported {request.reports} times by {request.reporters} {request.reporters === 1 ? 'sender' : 'senders'}, latest{' '}
            <When iso={request.last_reported_at} />
          </p>
        )}
      </header>

      <dl className="removal__fields">
        <div>
          <dt>Contact</dt>
          <dd>
            {EMAIL.test(contact) ? (
              <a href={`mailto:${contact}?subject=${encodeURIComponent(`Your content removal request #${id}`)}`}>{contact}</a>
            ) : (
              contact
            )}
          </dd>
        </div>
        {details && (
          <div>
            <dt>Details</dt>
            <dd className="removal__details">{details}</dd>
          </div>
        )}
      </dl>

      <ul className="removal__videos" aria-label={`Videos named in request #${id}`}>
        {request.videos.map((video) => (
          <li className="removal-video" key={video.id}>
            <span className="removal-video__name">
              {video.title === null ? (
                <span className="removal-video__deleted">Video {video.id} (deleted)</span>
              ) : (
                <Link to={`/video/${video.id}`}>{video.title || `Video ${video.id}`}</Link>
              )}
              {video.status !== null && video.status !== 'ready' && (
                <span className="removal-video__status">{VIDEO_STATUS_LABELS[video.status]}</span>
              )}
            </span>
            {video.title !== null && (
              <span className="removal-video__actions">
                <Link className="button button--quiet" to={`/admin/videos/${video.id}`} aria-label={`Edit video ${video.id}`}>
                  Edit
                </Link>
                <button
                  className="button button--danger"
                  type="button"
                  aria-haspopup="dialog"
                  aria-label={`Delete video ${video.id}`}
                  disabled={deletingVideoId === video.id}
                  onClick={() => onDeleteVideo(video)}
                >
                  Delete video
                </button>
              </span>
            )}
          </li>
        ))}
      </ul>

      {request.state === 'open' ? (
        <div className="removal__actions">
          <button
            className="button"
            type="button"
            aria-label={`Resolve request #${id}`}
            disabled={closing}
            onClick={() => onClose('resolved')}
          >
            Resolve
          </button>
          <button
            className="button button--quiet"
            type="button"
            aria-label={`Dismiss request #${id}`}
            disabled={closing}
            onClick={() => onClose('dismissed')}
          >
            Dismiss
          </button>
        </div>
      ) : (
        <p className={`removal__closed removal__closed--${request.state}`}>
          {request.state === 'resolved' ? 'Resolved' : 'Dismissed'}
          {request.closed_at && (
            <>
              {' '}
              <When iso={request.closed_at} />
            </>
          )}
        </p>
      )}
    </article>
  );
}
