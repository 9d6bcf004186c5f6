/**
 * A zone's HTML in a frame of its own: scripts may run and open the advertiser's page in a new tab, but without
 * `allow-same-origin` the frame is an opaque origin, which reads none of this site's cookies, storage or DOM.
 * The snippet goes in as the zone has it: the pages' CSP allows its inline blocks by their hashes (docs/ads.md).
 */
export function SandboxedAd({ html, width, height, onLoad }: { html: string; width: number; height: number; onLoad: () => void }) {
  return (
    <iframe
      className="ad-frame"
      title="Advertisement"
      sandbox="allow-scripts allow-popups allow-popups-to-escape-sandbox"
      srcDoc={html}
      width={width}
      height={height}
      onLoad={onLoad}
    />
  );
}
