import { hashPassword, PASSWORD_HASH, setPasswordHashCost, TEST_PASSWORD_HASH, verifyPassword } from './passwords';

describe('password hashes', () => {
  afterAll(() => setPasswordHashCost(TEST_PASSWORD_HASH));

  it('are argon2id at 64 MiB, three passes and four lanes unless the test suite lowered the cost', async () => {
    setPasswordHashCost(PASSWORD_HASH);
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=65536,p=4,t=3\$/);
    await expect(verifyPassword(hash, 'correct horse battery')).resolves.toBe(true);
    await expect(verifyPassword(hash, 'wrong horse battery')).resolves.toBe(false);
  });

  it('verify whatever cost they were made at: each hash names its own', async () => {
    setPasswordHashCost(TEST_PASSWORD_HASH);
    const light = await hashPassword('correct horse battery');
    expect(light).toMatch(/^\$argon2id\$v=19\$m=1024,p=1,t=1\$/);
    setPasswordHashCost(PASSWORD_HASH);
    await expect(verifyPassword(light, 'correct horse battery')).resolves.toBe(true);
    await expect(verifyPassword(light, 'correct horse batter')).resolves.toBe(false);
  });
});
