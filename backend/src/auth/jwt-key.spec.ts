import { JwtService } from '@nestjs/jwt';
import { sign, verify } from 'jsonwebtoken';
import { jwtKey } from './jwt-key';

describe('jwtKey', () => {
  const secret = 'a-secret-of-at-least-thirty-two-characters';

  it('is a secret key holding the secret’s bytes', () => {
    const key = jwtKey(secret);
    expect(key.type).toBe('secret');
    expect(key.export().toString('utf8')).toBe(secret);
  });

  it('verifies tokens signed with the secret as a string (issued before the key object), and signs tokens the string verifies', () => {
    const key = jwtKey(secret);
    const before = sign({ sub: 'u1' }, secret, { algorithm: 'HS256', expiresIn: 60 });
    expect(verify(before, key, { algorithms: ['HS256'] })).toMatchObject({ sub: 'u1' });
    const service = new JwtService({ privateKey: key, publicKey: key, signOptions: { algorithm: 'HS256' }, verifyOptions: { algorithms: ['HS256'] } });
    const after = service.sign({ sub: 'u2' });
    expect(verify(after, secret, { algorithms: ['HS256'] })).toMatchObject({ sub: 'u2' });
    expect(service.verify(before)).toMatchObject({ sub: 'u1' });
  });

  it('refuses a token signed with another secret, or with the same secret under another algorithm', () => {
    const service = new JwtService({ privateKey: jwtKey(secret), publicKey: jwtKey(secret), verifyOptions: { algorithms: ['HS256'] } });
    expect(() => service.verify(sign({ sub: 'u1' }, 'another-secret-of-at-least-thirty-two-chars', { algorithm: 'HS256' }))).toThrow(/invalid signature/);
    expect(() => service.verify(sign({ sub: 'u1' }, secret, { algorithm: 'HS512' }))).toThrow(/invalid algorithm/);
  });
});
