import { describe, expect, it } from 'vitest';
import { collapseDoubledHost, DEFAULT_AVATAR_SRC, nextPhotoFallback, photoSrc } from './photo-url.ts';

describe('photo addresses', () => {
  it('collapses a doubled host prefix to one', () => {
    expect(collapseDoubledHost('http://localhost:3000http://localhost:3000/photos/a/b.webp')).toBe(
      'http://localhost:3000/photos/a/b.webp',
    );
    expect(collapseDoubledHost('https://cdn.example.com/https://cdn.example.com/x.jpg')).toBe(
      'https://cdn.example.com/x.jpg',
    );
    expect(collapseDoubledHost('https://cdn.example.com/x.jpg')).toBe('https://cdn.example.com/x.jpg');
  });

  it('serves keys from the root, with a thumbnail variant', () => {
    expect(photoSrc('photos/u/abc.webp')).toBe('/photos/u/abc.webp');
    expect(photoSrc('photos/u/abc.webp', { thumbnail: true })).toBe('/photos/u/abc.thumb.webp');
    expect(photoSrc('photos/u/abc.thumb.webp', { thumbnail: true })).toBe('/photos/u/abc.thumb.webp');
    expect(photoSrc(undefined)).toBe(DEFAULT_AVATAR_SRC);
    expect(photoSrc('http://hhttp://h/p.png')).toBe('http://h/p.png');
  });

  it('falls back to the collapsed address, then the default avatar, then gives up', () => {
    expect(nextPhotoFallback('http://ahttp://a/p.png')).toBe('http://a/p.png');
    expect(nextPhotoFallback('/photos/u/x.webp')).toBe(DEFAULT_AVATAR_SRC);
    expect(nextPhotoFallback(`http://localhost${DEFAULT_AVATAR_SRC}`)).toBeNull();
  });
});
