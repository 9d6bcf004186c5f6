import { createHash } from 'node:crypto';
import { adSources, zoneProblem, zonesFor, type AdZone } from './ad-zone-rules';

const zone = (fields: Partial<AdZone>): AdZone => ({
  id: 1,
  name: 'Zone',
  placement: 'preroll',
  kind: 'vast',
  vastUrl: 'https://vast.example/tag',
  html: null,
  hosts: [],
  brands: ['default'],
  members: false,
  embeds: false,
  skipAfter: null,
  frequencyCap: null,
  weight: 1,
  active: true,
  ...fields,
});

describe('ad zone rules', () => {
  it('fits a slot only to active zones of its placement and brand, members and embeds where the zone says', () => {
    const zones = [
      zone({ id: 1 }),
      zone({ id: 2, active: false }),
      zone({ id: 3, brands: ['atg'] }),
      zone({ id: 4, members: true }),
      zone({ id: 5, embeds: true, brands: ['default', 'atg'] }),
      zone({ id: 6, placement: 'postroll' }),
    ];
    const ids = (viewer: Parameters<typeof zonesFor>[2]) => zonesFor(zones, 'preroll', viewer).map((z) => z.id);
    expect(ids({ brand: 'default', member: false, embed: false })).toEqual([1, 4, 5]);
    expect(ids({ brand: 'atg', member: false, embed: false })).toEqual([3, 5]);
    expect(ids({ brand: 'default', member: true, embed: false })).toEqual([4]);
    expect(ids({ brand: 'default', member: false, embed: true })).toEqual([5]);
    expect(ids({ brand: 'jtg', member: false, embed: false })).toEqual([]);
  });

  it('names what a zone lacks or holds that its kind does not take', () => {
    expect(zoneProblem(zone({}))).toBeNull();
    expect(zoneProblem(zone({ kind: 'html', html: '<b>x</b>', vastUrl: null }))).toBe('kind must be vast for placement preroll');
    expect(zoneProblem(zone({ placement: 'pause', kind: 'html', html: '<b>x</b>', vastUrl: null }))).toBeNull();
    expect(zoneProblem(zone({ placement: 'banner-footer' }))).toBe('kind must be html for placement banner-footer');
    expect(zoneProblem(zone({ vastUrl: null }))).toBe('vastUrl is required for a vast zone');
    expect(zoneProblem(zone({ vastUrl: 'http://:80' }))).toBe('vastUrl must be an http or https URL');
    expect(zoneProblem(zone({ html: '<b>x</b>' }))).toBe('html is only for html zones');
    expect(zoneProblem(zone({ placement: 'pause', kind: 'html', html: '<b>x</b>', vastUrl: null, skipAfter: 5 }))).toBe('skipAfter is only for vast zones');
  });

  it("gathers the active zones' origins and the hashes of their inline scripts and styles, each once, sorted", () => {
    const script = 'window.adConfig = { zone: 7 };';
    const style = 'body { margin: 0 }';
    const sources = adSources([
      zone({ vastUrl: 'https://vast.example:8443/tag?x=[CACHEBUSTING]', hosts: ['https://cdn.example'] }),
      zone({
        placement: 'banner-footer',
        kind: 'html',
        vastUrl: null,
        html: `<style>${style}</style><script src="https://Lib.Example/ad.js"></script><script>${script}</script><img src="http://img.example/a.png">`,
      }),
      zone({ active: false, vastUrl: 'https://off.example/tag' }),
    ]);
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    expect(sources).toEqual({
      origins: ['http://img.example', 'https://cdn.example', 'https://lib.example', 'https://vast.example:8443'],
      scriptHashes: [hash(script)],
      styleHashes: [hash(style)],
    });
    expect(adSources([])).toEqual({ origins: [], scriptHashes: [], styleHashes: [] });
  });
});
