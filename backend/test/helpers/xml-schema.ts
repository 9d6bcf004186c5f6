import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

/**
 * The official sitemap schemas, shipped in test/fixtures/sitemap-schemas (README.md there names their sources),
 * checked by libxml2's xmllint (Debian's libxml2-utils, which `npm test` installs): never the network.
 */
const SCHEMAS = path.join(__dirname, '../fixtures/sitemap-schemas');
export const SITEMAP_INDEX_SCHEMA = path.join(SCHEMAS, 'siteindex.xsd');
/** sitemaps.org's `<urlset>` with Google's video extension (sitemap.xsd checks `<video:video>` strictly). */
export const URLSET_SCHEMA = path.join(SCHEMAS, 'urlset-with-video.xsd');

/** xmllint's complaints about `xml` against `schema`; empty when the document is valid. */
export function schemaErrors(xml: string, schema: string): string {
  const result = spawnSync('xmllint', ['--noout', '--nonet', '--schema', schema, '-'], { input: xml, encoding: 'utf8' });
  if (result.error) throw new Error(`xmllint did not run (Debian's libxml2-utils): ${result.error.message}`);
  return result.status === 0 ? '' : result.stderr.trim() || `xmllint exited with ${result.status}`;
}
