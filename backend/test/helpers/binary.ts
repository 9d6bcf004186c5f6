import type request from 'supertest';

/** Supertest's parser for a binary answer (a segment, an image): the body as one Buffer. */
export const binary = (res: request.Response, done: (error: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};
