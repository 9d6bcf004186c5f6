import { useRef, useState } from 'react';
import { flushSync } from 'react-dom';

/**
 * An inline form opened by a button (Rename): while open the form shows; once closed, focus goes back to the
 * button that opened it, rather than to the start of the page.
 */
export function useInlineForm() {
  const [open, setOpen] = useState(false);
  const openerRef = useRef<HTMLButtonElement>(null);

  const close = () => {
    flushSync(() => setOpen(false));
    openerRef.current?.focus();
  };

  return { open, openerRef, show: () => setOpen(true), close };
}
