import { randomBytes } from 'node:crypto';
import { type Algorithm, hash, parseOptions, verify } from '@node-rs/argon2';

/** argon2id at OWASP's floor (QUALITY 1): 19 MiB, 2 passes, 1 lane. */
export const PASSWORD_HASH_POLICY = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export type PasswordHashPolicy = { memoryCost: number; timeCost: number; parallelism: number };

// `Algorithm` is a const enum the isolated-module build cannot read; 2 is its Argon2id member.
const ARGON2ID = 2 as Algorithm;

export type PasswordHasher = {
  hash(password: string): Promise<string>;
  /** False for a wrong password and for a stored value that is not an argon2 hash. */
  verify(storedHash: string, password: string): Promise<boolean>;
  /** Spends the time of one verification, so an unknown account answers as slowly as a known one. */
  verifyDummy(password: string): Promise<void>;
  /** True when the stored hash is weaker than the policy (or not argon2id): rehash it at login. */
  needsRehash(storedHash: string): boolean;
};

/** Hashes the whole password as given: no truncation, no normalization that could merge two. */
export async function createPasswordHasher(policy: PasswordHashPolicy = PASSWORD_HASH_POLICY): Promise<PasswordHasher> {
  const options = { algorithm: ARGON2ID, ...policy };
  // A real hash with the same parameters, of a password nobody knows.
  const dummyHash = await hash(randomBytes(32).toString('base64url'), options);
  const safeVerify = async (storedHash: string, password: string) => {
    try {
      return await verify(storedHash, password);
    } catch {
      return false;
    }
  };
  return {
    hash: (password) => hash(password, options),
    verify: safeVerify,
    async verifyDummy(password) {
      await safeVerify(dummyHash, password);
    },
    needsRehash(storedHash) {
      try {
        const current = parseOptions(storedHash);
        return (
          current.algorithm !== ARGON2ID ||
          current.memoryCost < policy.memoryCost ||
          current.timeCost < policy.timeCost ||
          current.parallelism !== policy.parallelism
        );
      } catch {
        return true;
      }
    },
  };
}
