import { describe, expect, it } from 'vitest';
import { hasImageVariants, imageCopyOf, imageSrcSet, imageVariantPath, parseImageVariant, storedImagePath } from './image-variants.js';

describe('image variants', () => {
  it('names copies after the original', () => {
    expect(imageVariantPath('/thumbs/a/poster.jpg', 320)).toBe('/thumbs/a/poster.jpg.320w.webp');
    expect(imageVariantPath('/thumbs/a/sprite-0.jpg', 'full')).toBe('/thumbs/a/sprite-0.jpg.webp');
  });

  it('reads a copy back to its original and width', () => {
    expect(parseImageVariant('2024/06/x/poster.jpg.640w.webp')).toEqual({ original: '2024/06/x/poster.jpg', width: 640 });
    expect(parseImageVariant('x/sprite-3.jpg.webp')).toEqual({ original: 'x/sprite-3.jpg', width: 'full' });
    expect(parseImageVariant('x/cover.PNG.1280w.webp')).toEqual({ original: 'x/cover.PNG', width: 1280 });
  });

  it.each(['x/poster.jpg', 'x/poster.webp', 'x/poster.jpg.500w.webp', 'x/poster.jpg.0640w.webp', 'x/poster.gif.webp', 'x/.webp', 'x/poster.jpg.320w.png', 'x/poster.jpg.320w.webp.640w.webp', 'x/p.jpg.webp.webp'])(
    'names no copy in %j',
    (path) => expect(parseImageVariant(path)).toBeNull(),
  );

  it('gives copies only to stored images, not to other sites’ URLs or to copies', () => {
    expect(hasImageVariants('/thumbs/a/poster.jpg')).toBe(true);
    expect(hasImageVariants('thumbs/a/cover.avif')).toBe(true);
    expect(hasImageVariants('https://elsewhere.example/thumbs/a/poster.jpg')).toBe(false);
    expect(hasImageVariants('/images/a/poster.jpg')).toBe(false);
    expect(hasImageVariants('/thumbs/a/poster.jpg?v=2')).toBe(false);
    expect(hasImageVariants('/thumbs/a/poster.jpg.320w.webp')).toBe(false);
    expect(hasImageVariants('/thumbs/a/preview.mp4')).toBe(false);
  });

  it('lists the copies as a srcset, resolved as the caller resolves paths', () => {
    expect(imageSrcSet('/thumbs/a/p.jpg', (p) => `https://img.example${p}`)).toBe(
      'https://img.example/thumbs/a/p.jpg.320w.webp 320w, https://img.example/thumbs/a/p.jpg.640w.webp 640w, https://img.example/thumbs/a/p.jpg.960w.webp 960w, https://img.example/thumbs/a/p.jpg.1280w.webp 1280w',
    );
    expect(imageSrcSet('https://elsewhere.example/p.jpg')).toBeNull();
  });

  it('finds the stored path of an image given as a path or as a URL on the image host', () => {
    expect(storedImagePath('/thumbs/a/p.jpg')).toBe('/thumbs/a/p.jpg');
    expect(storedImagePath('thumbs/a/p.jpg')).toBe('/thumbs/a/p.jpg');
    expect(storedImagePath(' https://img.example/thumbs/a/p.jpg ', 'https://img.example/')).toBe('/thumbs/a/p.jpg');
    expect(storedImagePath('https://img.example/thumbs/a/p.jpg', '')).toBeNull();
    expect(storedImagePath('https://other.example/thumbs/a/p.jpg', 'https://img.example')).toBeNull();
    expect(storedImagePath('', 'https://img.example')).toBeNull();
    expect(storedImagePath(null)).toBeNull();
  });

  it('names the copy to show of a stored image, and leaves any other as it is', () => {
    expect(imageCopyOf('/thumbs/a/p.jpg', '', 1280)).toBe('/thumbs/a/p.jpg.1280w.webp');
    expect(imageCopyOf('https://img.example/thumbs/a/p.jpg', 'https://img.example', 640)).toBe('/thumbs/a/p.jpg.640w.webp');
    expect(imageCopyOf('https://elsewhere.example/p.jpg', 'https://img.example', 640)).toBe('https://elsewhere.example/p.jpg');
    expect(imageCopyOf(null, '', 640)).toBeNull();
  });
});
