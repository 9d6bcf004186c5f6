import { Link, useSearchParams } from 'react-router';
import { prefilledAddress, RemovalRequestForm, removalAddress } from '@/features/legal/components/removal-request-form';
import { useSite } from '@/lib/site';
import '@/features/legal/legal.css';
import { DocumentTitle } from '@/lib/document-title';
import { PAGE_TITLES } from '@/lib/page-titles';

function useSiteName() {
  return useSite().data?.name ?? 'This site';
}

export function TermsRoute() {
  const name = useSiteName();
  return (
    <article className="legal-page">
      <DocumentTitle>{PAGE_TITLES.terms}</DocumentTitle>
      <h1>Terms of service</h1>
      <p>
        {name} shows sexually explicit videos of adult men. By using it you confirm that you are at least 18 years old
        (or the age of majority where you live, if higher) and that viewing such material is legal where you are.
      </p>
      <h2>Your account</h2>
      <p>
        An account keeps your bookmarks, watch-later queue, playlists, likes and viewing history. Keep your password to
        yourself; you are responsible for what is done with your account. You can pause or clear your history at any
        time from the History page.
      </p>
      <h2>What you may not do</h2>
      <ul>
        <li>Let a minor use the site or your account.</li>
        <li>Download, copy or republish the videos except through the share links the site offers.</li>
        <li>Disturb the service: automated scraping, overloading it, or getting round its access controls.</li>
      </ul>
      <h2>Content</h2>
      <p>
        Every performer was 18 or older when filmed; see the <Link to="/2257">2257 statement</Link>. If a video
        concerns you and should not be here, <Link to="/content-removal">ask us to remove it</Link>.
      </p>
      <h2>Parental controls</h2>
      <p>
        Every page carries the RTA (Restricted To Adults) label, which parental-control software recognises. Parents
        can block the site with such software.
      </p>
    </article>
  );
}

export function RecordsRoute() {
  const name = useSiteName();
  return (
    <article className="legal-page">
      <DocumentTitle>{PAGE_TITLES.records}</DocumentTitle>
      <h1>18 U.S.C. 2257 record-keeping requirements compliance statement</h1>
      <p>
        All models, actors, actresses and other persons who appear in any visual depiction of actual or simulated
        sexually explicit conduct on {name} were over the age of eighteen (18) years at the time the depictions were
        created.
      </p>
      <p>
        The records required by 18 U.S.C. 2257 and 28 C.F.R. 75 for the depictions on this site are kept by the
        producers of the content. Requests for the custodian of records of a particular video can be sent through the{' '}
        <Link to="/content-removal">content request page</Link>, naming the video.
      </p>
      <p>
        Where {name} is not the producer of a depiction, it is exempt from the record-keeping requirements for that
        depiction as a provider of hosting and distribution only.
      </p>
    </article>
  );
}

export function ContentRemovalRoute() {
  const [params] = useSearchParams();
  const address = removalAddress(window.location.hostname);
  // Opened from a video (?video=123): the form starts with that video's address.
  const initialUrls = prefilledAddress(params.get('video'), window.location.origin);
  return (
    <article className="legal-page">
      <DocumentTitle>{PAGE_TITLES.contentRemoval}</DocumentTitle>
      <h1>Content removal requests</h1>
      <p>
        If a video shows you without your consent, infringes your copyright, or shows anyone under 18 or any act that
        was not consensual, tell us with the form below. Requests about minors or non-consent are reviewed before all
        others.
      </p>
      <p>
        Once your request is sent you get a request number: quote it if you write to us about the request. You can
        also write to us directly at <a href={`mailto:${address}`}>{address}</a>.
      </p>
      <RemovalRequestForm key={initialUrls} address={address} initialUrls={initialUrls} />
    </article>
  );
}
