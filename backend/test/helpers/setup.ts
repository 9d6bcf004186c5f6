import { setPasswordHashCost, TEST_PASSWORD_HASH } from '../../src/auth/passwords';

// Every test file starts with password hashes at argon2's lowest cost (src/auth/passwords.ts says why); a file
// that tests the hashing line itself sets the production cost back (test/auth-abuse.e2e-spec.ts).
setPasswordHashCost(TEST_PASSWORD_HASH);
