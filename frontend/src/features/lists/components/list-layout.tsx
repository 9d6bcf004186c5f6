import { useId, type ReactNode } from 'react';
import { VideoGridSkeleton } from '@/components/ui/video-grid';
import { LibraryNav } from './library-nav';
import { DocumentTitle } from '@/lib/document-title';

interface ListLayoutProps {
  /** The page's heading and document title. */
  title: string;
  /** A line under the heading (a count). */
  subtitle?: ReactNode;
  /** Controls beside the heading (Play all, Pause history). */
  actions?: ReactNode;
  children: ReactNode;
}

/** The frame of every list page: the tabs between lists, then the heading with its controls, then the list. */
export function ListLayout({ title, subtitle, actions, children }: ListLayoutProps) {
  const headingId = useId();
  return (
    <section className="lists" aria-labelledby={headingId}>
      <DocumentTitle>{title}</DocumentTitle>
      <LibraryNav />
      <div className="lists__head">
        <div className="lists__heading">
          <h1 id={headingId}>{title}</h1>
          {subtitle && <p className="lists__subtitle">{subtitle}</p>}
        </div>
        {actions && <div className="lists__actions">{actions}</div>}
      </div>
      {children}
    </section>
  );
}

/** Placeholder cards while a list loads, announced as loading. */
export function ListLoading({ what }: { what: string }) {
  return (
    <>
      <p className="visually-hidden" role="status">
        Loading {what}…
      </p>
      <VideoGridSkeleton count={8} />
    </>
  );
}

/** What a list page shows while the session loads: its frame, with placeholder cards. */
export function ListSkeleton({ title }: { title: string }) {
  return (
    <ListLayout title={title}>
      <ListLoading what={title.toLowerCase()} />
    </ListLayout>
  );
}

/** A failed read, with the way to read it again. */
export function LoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div className="notice" role="alert">
      <p>{message}</p>
      <button className="button" type="button" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
