import { useId, useState, type FormEvent } from 'react';

const REASONS = [
  'I appear in this video and did not consent to its publication',
  'I own the copyright in this video',
  'The video shows someone under 18',
  'The video shows non-consensual or illegal acts',
  'Other',
] as const;

/** The mailbox that receives removal requests: on this site's own domain. */
export const removalAddress = (hostname: string) => `removals@${hostname.replace(/^www\./, '')}`;

/** Builds the e-mail for a removal request, so the sender's own mail program keeps a copy of what was sent. */
export function removalMailto(address: string, fields: { urls: string; reason: string; details: string; contact: string }) {
  const body = [
    `Video address(es):\n${fields.urls.trim()}`,
    `Reason: ${fields.reason}`,
    `Details:\n${fields.details.trim() || '(none)'}`,
    `Contact: ${fields.contact.trim()}`,
    'I state in good faith that this request is accurate and that I am the person concerned or entitled to act for them.',
  ].join('\n\n');
  const params = new URLSearchParams({ subject: `Content removal request: ${fields.reason}`, body });
  // URLSearchParams writes spaces as "+", which mail programs show literally; mailto wants %20.
  return `mailto:${address}?${params.toString().replace(/\+/g, '%20')}`;
}

export function RemovalRequestForm({ address }: { address: string }) {
  const id = useId();
  const [urls, setUrls] = useState('');
  const [reason, setReason] = useState<string>(REASONS[0]);
  const [details, setDetails] = useState('');
  const [contact, setContact] = useState('');
  const [confirmed, setConfirmed] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!/\/video\/\d+/.test(urls)) return setError('Give the address of at least one video (…/video/123).');
    if (!contact.trim()) return setError('Give an e-mail address or another way to reach you.');
    if (!confirmed) return setError('Confirm that the request is made in good faith.');
    setError(null);
    window.location.href = removalMailto(address, { urls, reason, details, contact });
  };

  return (
    <form className="legal-form" onSubmit={onSubmit} noValidate>
      <label htmlFor={`${id}-urls`}>Video address(es), one per line</label>
      <textarea id={`${id}-urls`} rows={3} maxLength={2000} value={urls} onChange={(e) => setUrls(e.target.value)} />

      <label htmlFor={`${id}-reason`}>Reason</label>
      <select id={`${id}-reason`} value={reason} onChange={(e) => setReason(e.target.value)}>
        {REASONS.map((text) => (
          <option key={text}>{text}</option>
        ))}
      </select>

      <label htmlFor={`${id}-details`}>Details (optional)</label>
      <textarea id={`${id}-details`} rows={4} maxLength={4000} value={details} onChange={(e) => setDetails(e.target.value)} />

      <label htmlFor={`${id}-contact`}>How to reach you</label>
      <input id={`${id}-contact`} type="text" maxLength={200} autoComplete="email" value={contact} onChange={(e) => setContact(e.target.value)} />

      <label className="legal-form__check">
        <input type="checkbox" checked={confirmed} onChange={(e) => setConfirmed(e.target.checked)} />I state in
        good faith that this request is accurate
      </label>

      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <button className="button button--primary" type="submit">
        Write the request e-mail
      </button>
    </form>
  );
}
