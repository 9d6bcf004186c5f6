import { MAX_REMOVAL_URLS, REMOVAL_CONTACT_MAX_LENGTH, REMOVAL_CONTACT_MIN_LENGTH, REMOVAL_DETAILS_MAX_LENGTH } from '@hunktube/shared';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ApiError } from '@/lib/api/client';
import type { RemovalReason, RemovalRequestCreated } from '@/lib/api/types';
import { isVideoId } from '@/lib/video-id';
import { useCreateRemovalRequest } from '../api/create-removal-request';

/** The reasons in the order the form offers them, with the sender's own words for each. */
const REASONS: readonly { code: RemovalReason; label: string }[] = [
  { code: 'no-consent', label: 'I appear in this video and did not consent to its publication' },
  { code: 'copyright', label: 'I own the copyright in this video' },
  { code: 'underage', label: 'The video shows someone under 18' },
  { code: 'illegal', label: 'The video shows non-consensual or illegal acts' },
  { code: 'other', label: 'Other' },
];

const VIDEO_ID = /^[1-9]\d{0,9}$/;

/** The mailbox that receives removal requests: on this site's own domain. */
export const removalAddress = (hostname: string) => `removals@${hostname.replace(/^www\./, '')}`;

/** The watch-page address of `?video=123`, to start the form with; empty unless it is a valid video id. */
export function prefilledAddress(video: string | null, origin: string): string {
  return isVideoId(video) ? `${origin}/video/${video}` : '';
}

/** The lines of the addresses box, trimmed, without the empty ones. */
const addressLines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** A line the API can read: contains a watch-page path (…/video/123) or is a bare video id. */
const isVideoAddress = (line: string) => /\/video\/[1-9]\d*/.test(line) || VIDEO_ID.test(line);

function addressProblem(urls: string[]): string | null {
  if (urls.length === 0) return 'Give the address of at least one video (…/video/123).';
  const bad = urls.find((line) => !isVideoAddress(line));
  if (bad !== undefined) return `“${bad}” is not the address of a video on this site (…/video/123).`;
  if (urls.length > MAX_REMOVAL_URLS) {
    return `Give at most ${MAX_REMOVAL_URLS} video addresses in one request.`;
  }
  return null;
}

interface RemovalRequestFormProps {
  /** Where to write instead, named when the request could not be sent. */
  address: string;
  /** The addresses box's starting text (a video's address when the page was opened from it). */
  initialUrls?: string;
}

/**
 * Sends a content removal request to the API. Once it is accepted the form gives way to the request number,
 * which the sender quotes in any later message.
 */
export function RemovalRequestForm({ address, initialUrls = '' }: RemovalRequestFormProps) {
  const id = useId();
  const [urls, setUrls] = useState(initialUrls);
  const [reason, setReason] = useState<RemovalReason>(REASONS[0].code);
  const [details, setDetails] = useState('');
  const [contact, setContact] = useState('');
  const [confirmed, setConfirmed] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const send = useCreateRemovalRequest();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (send.isPending) return;
    const lines = addressLines(urls);
    const problem = addressProblem(lines);
    if (problem) return setError(problem);
    if (contact.trim().length < REMOVAL_CONTACT_MIN_LENGTH) return setError('Give an e-mail address or another way to reach you.');
    if (!confirmed) return setError('Confirm that the request is made in good faith.');
    setError(null);
    const text = details.trim();
    send.mutate(
      { urls: lines, reason, ...(text ? { details: text } : {}), contact: contact.trim(), good_faith: true },
      {
        onError: (failure) =>
          // The API's reason for a refusal (a bad address, too many requests); anything else may be passing.
          setError(
            failure instanceof ApiError && failure.statusCode < 500 && failure.serverError
              ? failure.serverError
              : `The request could not be sent. Try again, or write to ${address}.`,
          ),
      },
    );
  };

  if (send.data) return <RemovalRequestSent created={send.data} />;

  return (
    <form className="legal-form" onSubmit={onSubmit} noValidate>
      <label htmlFor={`${id}-urls`}>Video address(es), one per line</label>
      <textarea id={`${id}-urls`} rows={3} maxLength={2000} value={urls} onChange={(e) => setUrls(e.target.value)} />

      <label htmlFor={`${id}-reason`}>Reason</label>
      <select id={`${id}-reason`} value={reason} onChange={(e) => setReason(e.target.value as RemovalReason)}>
        {REASONS.map(({ code, label }) => (
          <option key={code} value={code}>
            {label}
          </option>
        ))}
      </select>

      <label htmlFor={`${id}-details`}>Details (optional)</label>
      <textarea id={`${id}-details`} rows={4} maxLength={REMOVAL_DETAILS_MAX_LENGTH} value={details} onChange={(e) => setDetails(e.target.value)} />

      <label htmlFor={`${id}-contact`}>How to reach you</label>
      <input id={`${id}-contact`} type="text" maxLength={REMOVAL_CONTACT_MAX_LENGTH} autoComplete="email" value={contact} onChange={(e) => setContact(e.target.value)} />

      <label className="legal-form__check">
        <input type="checkbox" checked={confirmed} onChange={(e) => setConfirmed(e.target.checked)} />I state in
        good faith that this request is accurate
      </label>

      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <button className="button button--primary" type="submit" disabled={send.isPending}>
        {send.isPending ? 'Sending…' : 'Send the request'}
      </button>
    </form>
  );
}

/** Takes the place of the form once the request is in; focused, so that the number is read out at once. */
function RemovalRequestSent({ created }: { created: RemovalRequestCreated }) {
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => panel.current?.focus(), []);
  return (
    <div className="removal-sent" role="status" tabIndex={-1} ref={panel}>
      <p className="removal-sent__lead">
        Thank you. Your request number is <strong>{created.id}</strong>.
      </p>
      <p>Requests about minors and consent are reviewed before all others.</p>
    </div>
  );
}
