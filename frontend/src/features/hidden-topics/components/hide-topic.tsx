import { Link } from 'react-router';
import type { HiddenTopicsState } from '../hooks/use-hidden-topics';
import type { TopicKind } from '../utils/topics';

/** The settings page: every hidden topic, to unhide, and the lists to hide more from. */
export const HIDDEN_TOPICS_PATH = '/me/hidden';

const WHOSE: Record<TopicKind, string> = {
  category: 'Videos in this category',
  performer: 'Videos with this performer',
  tag: 'Videos with this tag',
};

interface HideTopicProps {
  kind: TopicKind;
  /** The category's, performer's or tag's id. */
  id: string;
  hiding: HiddenTopicsState;
}

/**
 * "Hide this category" (performer, tag) on its page: a toggle button (aria-pressed, its name the same in both
 * states), disabled until the visitor's list is known. Its icon keeps its width whatever the state.
 */
export function HideTopicButton({ kind, id, hiding }: HideTopicProps) {
  const hidden = hiding.isHidden(kind, id);
  return (
    <button
      className={hidden ? 'button hide-topic hide-topic--on' : 'button button--quiet hide-topic'}
      type="button"
      aria-pressed={hidden}
      disabled={!hiding.ready}
      onClick={() => (hidden ? hiding.unhide(kind, id) : hiding.hide(kind, id))}
    >
      <svg className="hide-topic__icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path d="M3 3l18 18M10.6 6.1A9.8 9.8 0 0 1 12 6c5 0 8.5 4.2 9.5 6a13 13 0 0 1-2.9 3.5M6.4 6.6A13.4 13.4 0 0 0 2.5 12c1 1.8 4.5 6 9.5 6a9.6 9.6 0 0 0 4.6-1.2M9.9 9.9a3 3 0 0 0 4.2 4.2" />
      </svg>
      Hide this {kind}
    </button>
  );
}

/**
 * Under the button: what hiding does, while the topic is hidden (its own page lists nothing either, as the API
 * answers a member's reads: one rule for members and guests), with the way to the settings page; and why a change
 * failed. A live region, so that hiding is announced where it is done.
 */
export function HideTopicStatus({ kind, id, hiding }: HideTopicProps) {
  const hidden = hiding.isHidden(kind, id);
  return (
    <>
      <div className="hide-topic-status" role="status">
        {hidden && (
          <p className="hide-topic-note">
            {WHOSE[kind]} are hidden: they are left out of every listing, search, related row and Continue watching,
            this page included, {hiding.isMember ? 'wherever you are logged in' : 'in this browser'}.{' '}
            <Link to={HIDDEN_TOPICS_PATH}>Your hidden topics</Link>
          </p>
        )}
      </div>
      {hiding.error && (
        <p className="form-error hide-topic-error" role="alert">
          {hiding.error}
        </p>
      )}
      {hiding.loadFailed && (
        <p className="form-error hide-topic-error" role="alert">
          Your hidden topics could not be loaded.{' '}
          <button className="button button--quiet" type="button" onClick={hiding.retry}>
            Try again
          </button>
        </p>
      )}
    </>
  );
}

/** A hidden topic's own page, empty: why. */
export const hiddenTopicEmpty = (kind: TopicKind) => `This ${kind} is hidden, so its videos are not shown here.`;
