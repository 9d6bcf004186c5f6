import { createContext, useContext, useEffect, useId, useRef, useSyncExternalStore } from 'react';
import { AGE_CONFIRMED_COOKIE } from '@hunktube/shared';
import { Link } from 'react-router';
import { AGE_CONFIRMED_KEY, readStorage, writeStorage } from '@/lib/storage';

/** Where a visitor who is not an adult is sent. */
export const LEAVE_URL = 'https://www.google.com/';

/** Pages that must stay readable without confirming: the legal texts the gate itself links to. */
const EXEMPT_PATHS = new Set(['/terms', '/2257', '/content-removal']);

export const isAgeConfirmed = () => readStorage('local', AGE_CONFIRMED_KEY) === 'true';

// The server renders pages without the gate for a visitor with AGE_CONFIRMED_COOKIE; localStorage stays the
// client's own record.
const COOKIE_MAX_AGE = 365 * 24 * 3600;

const hasCookie = () =>
  typeof document !== 'undefined' && document.cookie.split(/;\s*/).includes(`${AGE_CONFIRMED_COOKIE}=true`);

function writeCookie(): void {
  try {
    document.cookie = `${AGE_CONFIRMED_COOKIE}=true; Path=/; Max-Age=${COOKIE_MAX_AGE}; SameSite=Lax`;
  } catch {
    // Cookies refused: the server keeps drawing the gate, which the client then lifts from localStorage.
  }
}

/**
 * Whether the server drew the page as answered (its cookie): what the client's first render must agree with while
 * it hydrates the server's HTML, before it reads localStorage. False where nothing was rendered on the server.
 */
export const AgeConfirmedOnServer = createContext(false);

/** Answered in this tab where storage refused to keep it. */
let answeredHere = false;
const answered = () => answeredHere || isAgeConfirmed();
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Whether the gate covers this page for this visitor; `confirm` records the answer on this device. */
export function useAgeGate(pathname: string) {
  const onServer = useContext(AgeConfirmedOnServer);
  const confirmed = useSyncExternalStore(subscribe, answered, () => onServer);
  useEffect(() => {
    // Answered before the cookie existed (or in a frame, where it is not sent): tell the server from now on.
    if (confirmed && !hasCookie()) writeCookie();
  }, [confirmed]);
  return {
    open: !confirmed && !EXEMPT_PATHS.has(pathname),
    confirm: () => {
      writeStorage('local', AGE_CONFIRMED_KEY, 'true');
      if (!isAgeConfirmed()) answeredHere = true; // storage refused it: this tab remembers
      writeCookie();
      for (const listener of listeners) listener();
    },
  };
}

interface AgeGateProps {
  siteName?: string;
  onConfirm: () => void;
  /**
   * The gate inside another site's frame (the embeddable player): the legal texts open in a new tab (no other page
   * of this site may be framed), Leave calls `onLeave` instead of taking the frame to a site that refuses framing,
   * and the gate does not take the focus from the page around the frame.
   */
  embed?: { onLeave: () => void };
}

/**
 * The 18+ warning shown on a first visit, above a page that stays inert until the visitor answers. Entering is
 * remembered on this device; leaving goes elsewhere. It cannot be dismissed any other way (no Escape, no
 * backdrop click): the answer is the point.
 */
export function AgeGate({ siteName, onConfirm, embed }: AgeGateProps) {
  const titleId = useId();
  const textId = useId();
  const enter = useRef<HTMLButtonElement>(null);
  const inFrame = embed !== undefined;

  useEffect(() => {
    if (!inFrame) enter.current?.focus();
  }, [inFrame]);

  const legal = (to: string, text: string) =>
    inFrame ? (
      <a href={to} target="_blank" rel="noopener">
        {text}
      </a>
    ) : (
      <Link to={to}>{text}</Link>
    );

  return (
    <div className={inFrame ? 'age-gate age-gate--embed' : 'age-gate'}>
      <div className="age-gate__panel" role="dialog" aria-modal="true" aria-labelledby={titleId} aria-describedby={textId}>
        <p className="age-gate__badge" aria-hidden="true">
          18+
        </p>
        <h2 className="age-gate__title" id={titleId}>
          {siteName ? `${siteName} is an adult website` : 'This is an adult website'}
        </h2>
        <div id={textId} className="age-gate__text">
          <p>
            It contains sexually explicit material, including videos of nudity and sex between men. You may enter
            only if you are at least 18 years old (or the age of majority where you live) and viewing such material is
            legal where you are.
          </p>
          <p>
            By entering you confirm this and agree to the {legal('/terms', 'Terms of service')}. Every performer was
            18 or older when filmed ({legal('/2257', '18 U.S.C. 2257 statement')}).
          </p>
        </div>
        <div className="age-gate__actions">
          <button ref={enter} className="button button--primary" type="button" onClick={onConfirm}>
            I am 18 or older – Enter
          </button>
          {embed ? (
            <button className="button button--quiet" type="button" onClick={embed.onLeave}>
              I am under 18 – Leave
            </button>
          ) : (
            <a className="button button--quiet" href={LEAVE_URL} rel="noreferrer">
              I am under 18 – Leave
            </a>
          )}
        </div>
        <p className="age-gate__note">
          Parents: this site is labelled with RTA (Restricted To Adults) to make parental filtering easy.
        </p>
      </div>
    </div>
  );
}
