/*
 * The shared-memory layout between the codec's thread and its helper worker (parallel/node.ts and
 * parallel/worker.ts). One SharedArrayBuffer per job: a control block of Int32 slots, a few small
 * byte fields, then the ciphertext. The worker writes its decoded half of a file payload over the
 * ciphertext it has already decrypted (see tailOffset).
 */

/** Int32 slot indexes in the control block. */
export const SLOT = {
  /** Ciphertext bytes the codec thread has written so far (the worker MACs up to here). */
  available: 0,
  /** 0 while the worker MACs, 1 once the digest is written. */
  macDone: 1,
  /**
   * The codec thread's word on the job: 0 none yet, 1 stop, 2 the ciphertext text is valid
   * base64url, so the worker may decrypt its half of a file payload once its own constant-time
   * tag check has passed.
   */
  command: 2,
  /** The id of the last job the worker finished (it touches the buffer no more after that). */
  finished: 3,
  /** 1 once the worker has verified the tag and starts decrypting its half (for tests). */
  tailStarted: 4,
  /** The worker's second-half outcome: see TAIL. */
  tailStatus: 5,
  /** Bytes the worker wrote at OUTPUT_OFFSET(ciphertext length). */
  tailBytes: 6,
  /** Characters of the worker's half that belong to the codec thread's last base64 group. */
  carryLength: 7,
  /** File bytes of its half the worker has written so far (the codec thread copies them out as they come). */
  tailProgress: 8,
} as const;

export const COMMAND = { none: 0, stop: 1, go: 2 } as const;

/** Second-half outcomes. `irregular`: not the canonical file payload; the caller takes the slow path. */
export const TAIL = { ok: 1, badPadding: 2, irregular: 3 } as const;

export const SLOTS = 16;
export const DIGEST_OFFSET = 64;
export const CARRY_OFFSET = 96;
export const DATA_OFFSET = 128;

/**
 * Where the worker writes the file bytes of its half: over its own first ciphertext blocks. Base64
 * decodes 4 characters to 3 bytes, so the output never catches up with the blocks still to read.
 */
export const tailOffset = (splitBlock: number, outputShift: number) =>
  DATA_OFFSET + splitBlock * 16 + outputShift;

/** The message that starts a job. Keys travel by message, never through the shared buffer. */
export interface Job {
  /** For file payloads: the tag to verify, the first block of the worker's half, and where in its
   * 8-byte word its output starts (the codec thread's destination's, because copying out of
   * shared memory at mismatched alignments goes byte by byte). */
  tag: Uint8Array;
  splitBlock: number;
  outputShift: number;
  id: number;
  kind: 'seal' | 'open';
  /** 'file': the plaintext is `{"file":"<base64>"}` and the worker decodes its half's base64. */
  payload: 'raw' | 'file';
  buffer: SharedArrayBuffer;
  macKey: Uint8Array;
  encKey: Uint8Array;
  aad: Uint8Array;
  iv: Uint8Array;
  ciphertextLength: number;
}
