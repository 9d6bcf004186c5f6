import { useEffect, useId, useRef, useState } from 'react';
import { embedCode } from '../utils/embed-code';
import { ShareIcon } from './icons';
import { useOrigin } from '@/lib/origin';

function shareHref(title: string, videoId: number, origin: string): string {
  const params = new URLSearchParams({ text: title, url: `${origin}/video/${videoId}` });
  return `https://twitter.com/intent/tweet?${params.toString().replace(/\+/g, '%20')}`;
}

/**
 * The stats row's Share: a disclosure (not an ARIA menu: a few controls reached with Tab) with the video's public
 * link, the prefilled post link of the specification (in a new tab) and the code that embeds the player in
 * another site. Both texts stay in read-only fields, so they can be selected by hand where the clipboard is refused.
 */
export function ShareMenu({ videoId, title }: { videoId: number; title: string }) {
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
        <ShareIcon />
        Share
      </button>
      <div className="share-menu__panel" id={panelId} hidden={!open}>
        <label className="share-menu__label" htmlFor={linkId}>
          Link
        </label>
        <input className="share-menu__field" id={linkId} type="text" readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
        <button className="button" type="button" onClick={() => void copy(link, linkId, 'Link copied')}>
          Copy link
        </button>
        <a className="button" href={shareHref(title, videoId, origin)} target="_blank" rel="noopener noreferrer">
          Post on X
        </a>
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
