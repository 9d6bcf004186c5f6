const pad2 = (n: number) => String(n).padStart(2, '0');

/** A duration in seconds as m:ss, or h:mm:ss from one hour; '--:--' while unknown. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) {
    return '--:--';
  }
  const total = Math.floor(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h > 0 ? `${h}:${pad2(m)}:${pad2(s)}` : `${m}:${pad2(s)}`;
}

/**
 * Whole seconds as an ISO 8601 duration (schema.org's VideoObject, the server's head and the client's JSON-LD):
 * 3725 → "PT1H2M5S", 725 → "PT12M5S", 0 → "PT0S".
 */
export function isoDuration(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return `PT${h ? `${h}H` : ''}${m ? `${m}M` : ''}${s || total === 0 ? `${s}S` : ''}`;
}
