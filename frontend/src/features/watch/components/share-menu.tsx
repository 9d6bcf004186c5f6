import { useEffect, useId, useRef, useState } from 'react';
import { embedCode } from '../utils/embed-code';
import { EmbedIcon, ShareIcon } from './icons';
import { useOrigin } from '@/lib/origin';

function shareHref(title: string, videoId: number, origin: string): string {
  const params = new URLSearchParams({ text: title, url: `${origin}/video/${videoId}` });
  return `https://twitter.com/intent/tweet?${params.toString().replace(/\+/g, '%20')}`;
}

/**
 * The stats row's share link (product spec §2.1): the prefilled post link, opened in a new tab, with the shown
 * title and the video's public address.
 */
export function ShareLink({ videoId, title }: { videoId: number; title: string }) {
  const origin = useOrigin();
  return (
    <a className="stat stat--button" href={shareHref(title, videoId, origin)} target="_blank" rel="noopener noreferrer">
      <ShareIcon />
      Share
      <span className="visually-hidden"> (opens in a new tab)</span>
    </a>
  );
}

/**
 * The stats row's "Link & embed": a disclosure (not an ARIA menu: a few controls reached with Tab) with the
 * video's public link and the code that embeds the player in another site, each with a Copy button. Both texts
 * stay in read-only fields, so they can be selected by hand where the clipboard is refused.
 */
export function LinkAndEmbedMenu({ videoId, title }: { videoId: number; title: string }) {
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState('');
  const root = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const linkId = useId();
  const codeId = useId();

  const origin = useOrigin();
  const link = `${origin}/video/${videoId}`;
  const code = embedCode({ origin, videoId, title });

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      toggle.current?.focus();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  const copy = async (text: string, field: string, done: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setStatus(done);
    } catch {
      // No clipboard (an old browser, a page not focused, a refusal): the text is selected for a manual copy.
      const input = document.getElementById(field) as HTMLInputElement | HTMLTextAreaElement | null;
      input?.focus();
      input?.select();
      setStatus('Copying was refused: the text is selected, copy it with Ctrl+C (⌘C)');
    }
  };

  return (
    <div className="share-menu" ref={root}>
      <button
        ref={toggle}
        className="stat stat--button"
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => {
          setOpen((value) => !value);
          setStatus('');
        }}
      >
        <EmbedIcon />
        Link &amp; embed
      </button>
      <div className="share-menu__panel" id={panelId} hidden={!open}>
        <label className="share-menu__label" htmlFor={linkId}>
          Link
        </label>
        <input className="share-menu__field" id={linkId} type="text" readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
        <button className="button" type="button" onClick={() => void copy(link, linkId, 'Link copied')}>
          Copy link
        </button>
        <label className="share-menu__label" htmlFor={codeId}>
          Embed code
        </label>
        <textarea
          className="share-menu__field"
          id={codeId}
          readOnly
          rows={4}
          value={code}
          onFocus={(e) => e.currentTarget.select()}
        />
        <button className="button" type="button" onClick={() => void copy(code, codeId, 'Embed code copied')}>
          Copy embed code
        </button>
        <p className="share-menu__status" role="status">
          {status}
        </p>
      </div>
    </div>
  );
}
