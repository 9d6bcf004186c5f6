import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { CloseIcon } from '@/components/ui/dialog';
import { ApiError } from '@/lib/api/client';

export type NoticeTone = 'success' | 'error';

interface Notice {
  id: number;
  tone: NoticeTone;
  message: string;
}

export interface AdminNotices {
  success: (message: string) => void;
  error: (message: string) => void;
}

/** How long a notice stays; a failure stays longer, so there is time to read what went wrong. */
const LIFETIME_MS: Record<NoticeTone, number> = { success: 5000, error: 10_000 };
/** Older notices give way when several arrive at once. */
const MAX_SHOWN = 3;

const NoticeContext = createContext<AdminNotices | null>(null);

/**
 * Short, non-blocking notices ("toasts") for the admin pages. The admin shell provides them around every admin
 * page, so a notice outlives the page that raised it (a deleted video's page hands over to the list).
 */
export function AdminNoticeProvider({ children }: { children: ReactNode }) {
  const [notices, setNotices] = useState<Notice[]>([]);
  const nextId = useRef(0);

  const dismiss = useCallback((id: number) => setNotices((shown) => shown.filter((notice) => notice.id !== id)), []);
  const show = useCallback((tone: NoticeTone, message: string) => {
    nextId.current += 1;
    const notice = { id: nextId.current, tone, message };
    setNotices((shown) => [...shown.slice(-(MAX_SHOWN - 1)), notice]);
  }, []);
  const api = useMemo<AdminNotices>(
    () => ({ success: (message) => show('success', message), error: (message) => show('error', message) }),
    [show],
  );

  return (
    <NoticeContext.Provider value={api}>
      {children}
      <AdminNoticeList notices={notices} onDismiss={dismiss} />
    </NoticeContext.Provider>
  );
}

/** `success(text)` and `error(text)` show a notice; only inside AdminNoticeProvider (the admin shell). */
export function useAdminNotice(): AdminNotices {
  const notices = useContext(NoticeContext);
  if (!notices) throw new Error('useAdminNotice needs an AdminNoticeProvider (the admin shell provides one)');
  return notices;
}

interface AdminNoticeListProps {
  notices: Notice[];
  onDismiss: (id: number) => void;
}

/** The live region: present before any notice arrives, so that screen readers announce each one. */
function AdminNoticeList({ notices, onDismiss }: AdminNoticeListProps) {
  return (
    <div className="admin-notices" role="status" aria-live="polite" aria-label="Notifications">
      {notices.map((notice) => (
        <AdminNotice key={notice.id} notice={notice} onDismiss={onDismiss} />
      ))}
    </div>
  );
}

function AdminNotice({ notice, onDismiss }: { notice: Notice; onDismiss: (id: number) => void }) {
  const { id, tone, message } = notice;

  useEffect(() => {
    const timer = window.setTimeout(() => onDismiss(id), LIFETIME_MS[tone]);
    return () => window.clearTimeout(timer);
  }, [id, tone, onDismiss]);

  return (
    <div className={`admin-notice admin-notice--${tone}`}>
      <p>{message}</p>
      <button className="icon-button icon-button--small" type="button" aria-label="Dismiss" onClick={() => onDismiss(id)}>
        <CloseIcon />
      </button>
    </div>
  );
}

/**
 * The error text to log for a failed admin call: the server's `error` message, the message of a network
 * failure, or 'Unknown error' when there is none (a proxy's page, an empty `error` field).
 */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) return error.serverError || 'Unknown error';
  if (error instanceof Error && error.message) return error.message;
  return 'Unknown error';
}

/** A short failure notice, with the server's reason when it gave one: "The changes were not saved: Slug is taken." */
export function failureNotice(summary: string, error: unknown): string {
  const reason = error instanceof ApiError ? error.serverError : undefined;
  return reason ? `${summary}: ${reason.replace(/\.?$/, '.')}` : `${summary}.`;
}
