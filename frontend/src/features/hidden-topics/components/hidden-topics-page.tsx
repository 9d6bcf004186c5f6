import { EXCLUDE_MAX, type ExcludedTopics } from '@hunktube/shared';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useTaxa } from '@/api/taxonomy/get-taxa';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DocumentTitle } from '@/lib/document-title';
import { PAGE_TITLES } from '@/lib/page-titles';
import { loginHref } from '@/lib/return-path';
import { type HiddenTopicsState, useHiddenTopics } from '../hooks/use-hidden-topics';
import { TOPIC_FIELD, TOPIC_KINDS, topicCount, type TopicKind } from '../utils/topics';
import { HIDDEN_TOPICS_PATH } from './hide-topic';

const HEADINGS: Record<TopicKind, string> = { category: 'Categories', performer: 'Performers', tag: 'Tags' };

/** The topics of `a` that `b` does not hold. */
const missingFrom = (a: ExcludedTopics, b: ExcludedTopics): number =>
  TOPIC_KINDS.reduce((n, kind) => n + a[TOPIC_FIELD[kind]].filter((id) => !b[TOPIC_FIELD[kind]].includes(id)).length, 0);

const topicsText = (n: number) => `${n} ${n === 1 ? 'topic' : 'topics'}`;

/**
 * The visitor's hidden topics (docs/decisions.md › "Hidden topics"), for guests and members alike: each kind's
 * hidden ones by name with Unhide, a list to hide more from, Unhide all; for a member who hid topics in this
 * browser before logging in, the offer to add them to the account.
 */
export function HiddenTopicsPage() {
  const titleId = useId();
  const hiding = useHiddenTopics();
  const heading = useRef<HTMLHeadingElement>(null);
  const [announcement, setAnnouncement] = useState('');
  const [confirming, setConfirming] = useState(false);
  const clearing = useRef(false);
  const total = topicCount(hiding.topics);
  const fromBrowser = hiding.isMember ? missingFrom(hiding.browserTopics, hiding.topics) : 0;

  // After Unhide all, its button is gone: the focus goes to the page's heading, as on a new page.
  useEffect(() => {
    if (!clearing.current || total > 0) return;
    clearing.current = false;
    heading.current?.focus();
  }, [total]);

  return (
    <section className="hidden-topics" aria-labelledby={titleId}>
      <DocumentTitle>{PAGE_TITLES.hiddenTopics}</DocumentTitle>
      {/* Nobody else's search result (robots.txt keeps crawlers out of /me/ too). */}
      <meta name="robots" content="noindex" />
      <h1 id={titleId} ref={heading} tabIndex={-1}>
        {PAGE_TITLES.hiddenTopics}
      </h1>
      <p className="hidden-topics__intro">
        Videos in the categories, with the performers and with the tags you hide are left out of every listing,
        search, related row and Continue watching. A video&apos;s own page still opens from its address.
      </p>
      {hiding.ready && !hiding.isMember && (
        <p className="hidden-topics__intro">
          You are not logged in: this list is kept in this browser ({EXCLUDE_MAX} topics at most).{' '}
          <Link to={loginHref(HIDDEN_TOPICS_PATH)}>Log in</Link> to keep it with your account.
        </p>
      )}

      {hiding.ready && fromBrowser > 0 && (
        <div className="panel hidden-topics__merge">
          <p>
            Before you logged in, {topicsText(fromBrowser)} {fromBrowser === 1 ? 'was' : 'were'} hidden in this browser
            that your account does not hide.
          </p>
          <button className="button" type="button" disabled={hiding.saving} onClick={() => {
            hiding.adoptBrowserTopics();
            setAnnouncement(`${topicsText(fromBrowser)} added to your account.`);
          }}>
            Add the {topicsText(fromBrowser)} hidden in this browser to your account
          </button>
        </div>
      )}

      {hiding.error && (
        <p className="form-error" role="alert">
          {hiding.error}
        </p>
      )}

      {hiding.loadFailed ? (
        <div className="notice" role="alert">
          <p>Your hidden topics could not be loaded.</p>
          <button className="button" type="button" onClick={hiding.retry}>
            Try again
          </button>
        </div>
      ) : !hiding.ready ? (
        <p className="hidden-topics__loading" role="status">
          Loading your hidden topics…
        </p>
      ) : (
        <>
          {TOPIC_KINDS.map((kind) => (
            <TopicSection key={kind} kind={kind} hiding={hiding} announce={setAnnouncement} />
          ))}
          {total > 0 && (
            <p>
              <button className="button button--quiet" type="button" onClick={() => setConfirming(true)}>
                Unhide all
              </button>
            </p>
          )}
        </>
      )}

      <p className="visually-hidden" role="status">
        {announcement}
      </p>
      <ConfirmDialog
        open={confirming}
        title="Unhide every topic?"
        confirmLabel="Unhide all"
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          hiding.clear();
          clearing.current = true;
          setAnnouncement('Nothing is hidden now.');
        }}
      >
        The videos of the {topicsText(total)} you hide will show again everywhere.
      </ConfirmDialog>
    </section>
  );
}

interface TopicSectionProps {
  kind: TopicKind;
  hiding: HiddenTopicsState;
  announce: (text: string) => void;
}

const TAXA = { category: 'categories', performer: 'performers', tag: 'tags' } as const;

/** One kind's hidden topics by name (an id the index no longer names shows as it is), and a list to hide one more. */
function TopicSection({ kind, hiding, announce }: TopicSectionProps) {
  const id = useId();
  const taxa = useTaxa(TAXA[kind]);
  const [choice, setChoice] = useState('');
  const list = useRef<HTMLUListElement>(null);
  const picker = useRef<HTMLSelectElement>(null);
  // The topic just unhidden and where it stood: once it has left the list, the focus goes to the next one's
  // button (or the last, or the picker), not to the page's start.
  const leaving = useRef<{ id: string; index: number } | null>(null);

  const hidden = hiding.topics[TOPIC_FIELD[kind]];
  const names = new Map((taxa.data?.data ?? []).map((taxon) => [taxon.id, taxon.name]));
  const nameOf = (topic: string) => names.get(topic) ?? topic;
  const shown = [...hidden].sort((a, b) => nameOf(a).localeCompare(nameOf(b)));
  const available = (taxa.data?.data ?? []).filter((taxon) => !hidden.includes(taxon.id)).sort((a, b) => a.name.localeCompare(b.name));

  useEffect(() => {
    const left = leaving.current;
    if (!left || hidden.includes(left.id)) return;
    leaving.current = null;
    const buttons = list.current?.querySelectorAll('button') ?? [];
    (buttons[Math.min(left.index, buttons.length - 1)] ?? picker.current)?.focus();
  }, [hidden]);

  const onHide = (event: FormEvent) => {
    event.preventDefault();
    if (!choice) return;
    hiding.hide(kind, choice);
    announce(`${nameOf(choice)} is hidden.`);
    setChoice('');
  };

  return (
    <section className="panel hidden-topics__kind" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{HEADINGS[kind]}</h2>
      {shown.length === 0 ? (
        <p>No {kind} is hidden.</p>
      ) : (
        <ul className="hidden-topics__list" ref={list}>
          {shown.map((topic, index) => (
            <li key={topic} className="hidden-topics__item">
              <span className="hidden-topics__name">{nameOf(topic)}</span>
              <button
                className="button button--quiet"
                type="button"
                onClick={() => {
                  leaving.current = { id: topic, index };
                  hiding.unhide(kind, topic);
                  announce(`${nameOf(topic)} is no longer hidden.`);
                }}
              >
                Unhide <span className="visually-hidden">{nameOf(topic)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {taxa.isError && (
        <p className="form-error" role="alert">
          The {TAXA[kind]} could not be loaded.{' '}
          <button className="button button--quiet" type="button" onClick={() => void taxa.refetch()}>
            Try again
          </button>
        </p>
      )}
      <form className="hidden-topics__pick" onSubmit={onHide}>
        <label htmlFor={`${id}-pick`}>Hide a {kind}</label>
        <select
          id={`${id}-pick`}
          ref={picker}
          value={choice}
          disabled={!taxa.isSuccess}
          onChange={(event) => setChoice(event.target.value)}
        >
          <option value="">{taxa.isPending ? 'Loading…' : `Choose a ${kind}`}</option>
          {available.map((taxon) => (
            <option key={taxon.id} value={taxon.id}>
              {taxon.name}
            </option>
          ))}
        </select>
        <button className="button" type="submit" disabled={!choice}>
          Hide <span className="visually-hidden">this {kind}</span>
        </button>
      </form>
    </section>
  );
}
