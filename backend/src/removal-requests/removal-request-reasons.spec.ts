import { videoIdFromAddress } from './removal-request-reasons';

const HOSTS = ['hunktube.example', 'localhost:3000'];

describe('videoIdFromAddress', () => {
  it.each([
    ['https://hunktube.example/video/123', 123],
    ['https://HunkTube.Example:443/video/5', 5],
    ['http://localhost:3000/video/7?t=90', 7],
    ['http://localhost:5173/video/8', 8],
    ['https://hunktube.example/video/42?context=playlist&playlist=3', 42],
    ['/video/9', 9],
    ['  /video/9#top ', 9],
    ['15', 15],
  ])('reads %s as %i', (address, id) => {
    expect(videoIdFromAddress(address, HOSTS)).toBe(id);
  });

  it.each([
    ['https://hunktube.example/categories/bears'],
    ['https://hunktube.example/video/'],
    ['https://hunktube.example/video/0'],
    ['https://hunktube.example/video/12abc'],
    ['https://hunktube.example/video/99999999999'],
    ['https://evil.example/video/12'],
    ['https://hunktube.example.evil.example/video/12'],
    ['https://user@hunktube.example/video/12'],
    ['video 12'],
    [''],
  ])('finds no video in %j', (address) => {
    expect(videoIdFromAddress(address, HOSTS)).toBeNull();
  });
});
