/**
 * The ROCA fingerprint (CVE-2017-15361). Infineon's RSALib built its primes as
 * p = k·M + (65537^a mod M) with M a primorial, so every such modulus n = p·q is, modulo each
 * small prime r dividing M, a power of 65537: n mod r lies in the subgroup of (Z/rZ)* that
 * 65537 generates. The discoverers' detector tests exactly that for the odd primes 3…167
 * (Nemec, Sýs, Švenda, Klinec, Matyáš, "The Return of Coppersmith's Attack", ACM CCS 2017;
 * https://github.com/crocs-muni/roca, `roca/detect.py`, and `java/RocaDetect.java`, which tests
 * the same property through the order of 65537 modulo the primorial). A modulus that is not
 * from RSALib passes all 38 tests by chance with probability about 2^-28 (the product of
 * |subgroup| / (r − 1) over the primes: one ordinary key in some 240 million), so a hit means,
 * in practice, a key whose factors can be recovered from its public half (for 2048 bits, in
 * CPU-years), and the key is never trusted.
 *
 * The subgroups are computed here from that definition, not copied from the detector's
 * precomputed masks.
 */

/**
 * The odd primes 3…167 the published detector tests, by trial division up to the square root
 * (every function that verifies a token loads this module: building an array of divisors per
 * candidate cost 2–5 ms of each cold start, this a few microseconds).
 */
const PRIMES: readonly number[] = oddPrimesUpTo(167);

function oddPrimesUpTo(limit: number): number[] {
  const primes: number[] = [];
  for (let candidate = 3; candidate <= limit; candidate += 2) {
    let prime = true;
    for (let divisor = 3; divisor * divisor <= candidate && prime; divisor += 2) prime = candidate % divisor !== 0;
    if (prime) primes.push(candidate);
  }
  return primes;
}

const GENERATOR = 65537;

/** For each prime r, the residues 65537^k mod r (k ≥ 0): the subgroup 65537 generates. */
const SUBGROUPS: readonly ReadonlySet<number>[] = PRIMES.map((r) => {
  const members = new Set<number>();
  for (let power = 1; !members.has(power); power = (power * (GENERATOR % r)) % r) members.add(power);
  return members;
});

export const ROCA_TEST_PRIMES = PRIMES;

/** True when the modulus carries the ROCA fingerprint. */
export function hasRocaFingerprint(modulus: bigint): boolean {
  return PRIMES.every((r, index) => SUBGROUPS[index]!.has(Number(modulus % BigInt(r))));
}
