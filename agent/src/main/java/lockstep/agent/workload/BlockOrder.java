package lockstep.agent.workload;

/**
 * Which block a thread handles at each step. The file's n blocks are split into equal consecutive
 * shares, one per thread; sequential visits a share's blocks in file order, random maps each step
 * through the seeded affine permutation k -> (a*k + c) mod n, so every block is touched exactly
 * once, in a scattered order, the same for the same seed.
 */
final class BlockOrder {
  private final long blocks;
  private final boolean random;
  private final long a;
  private final long c;

  BlockOrder(long blocks, boolean random, long seed) {
    this.blocks = blocks;
    this.random = random;
    if (!random || blocks <= 1) {
      this.a = 1;
      this.c = 0;
      return;
    }
    // Multiplier below 2^20 (so a*k stays far below 2^63 for up to 2^42 blocks), coprime with n.
    long mixed = mix(seed);
    long candidate = (mixed & 0xFFFFF) | 1;
    candidate = candidate % blocks == 0 ? 1 : candidate % blocks;
    while (gcd(candidate, blocks) != 1) {
      candidate = candidate + 1 == blocks ? 1 : candidate + 1;
    }
    this.a = candidate;
    this.c = Math.floorMod(mix(mixed), blocks);
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }

  private static long gcd(long x, long y) {
    while (y != 0) {
      long t = x % y;
      x = y;
      y = t;
    }
    return x;
  }

  long blocks() {
    return blocks;
  }

  /** First step of thread t of threads (inclusive). */
  long shareStart(int t, int threads) {
    return blocks * t / threads;
  }

  long shareEnd(int t, int threads) {
    return blocks * (t + 1) / threads;
  }

  /** The block index visited at step k (0 <= k < blocks). */
  long block(long k) {
    return random ? (a * k + c) % blocks : k;
  }
}
