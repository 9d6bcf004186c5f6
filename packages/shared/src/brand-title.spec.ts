import { describe, expect, it } from 'vitest';
import { brandTitle } from './brand-title.js';

describe('brandTitle', () => {
  const video = { title: 'Main', atg_title: 'ATG title', jtg_title: '  ' };

  it("gives the brand's own title when it has one, else the main title", () => {
    expect(brandTitle(video, 'atg')).toBe('ATG title');
    expect(brandTitle(video, 'jtg')).toBe('Main');
    expect(brandTitle(video, 'default')).toBe('Main');
    expect(brandTitle({ title: 'Only' }, undefined)).toBe('Only');
  });
});
