import { describe, expect, it } from 'vitest';
import { AD_KINDS, AD_KINDS_OF, AD_PLACEMENTS, BRANDS } from './ad-zones.js';

describe('ad zones', () => {
  it('names every placement, and only those, in the map of kinds', () => {
    expect(Object.keys(AD_KINDS_OF).sort()).toEqual([...AD_PLACEMENTS].sort());
  });

  it('plays VAST in the player, HTML in the banners, either on pause', () => {
    expect(AD_KINDS_OF.preroll).toEqual(['vast']);
    expect(AD_KINDS_OF.postroll).toEqual(['vast']);
    expect(AD_KINDS_OF.pause).toEqual(['vast', 'html']);
    for (const placement of AD_PLACEMENTS.filter((p) => p.startsWith('banner-'))) expect(AD_KINDS_OF[placement]).toEqual(['html']);
  });

  it('offers each placement at least one kind, each a known one', () => {
    for (const placement of AD_PLACEMENTS) {
      expect(AD_KINDS_OF[placement].length).toBeGreaterThan(0);
      for (const kind of AD_KINDS_OF[placement]) expect(AD_KINDS).toContain(kind);
    }
  });

  it('lists the brands BRAND allows, the default first', () => {
    expect(BRANDS).toEqual(['default', 'atg', 'jtg']);
  });
});
