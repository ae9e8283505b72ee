import { expect } from 'vitest';
import { isJweError, type JweError, type JweErrorCode } from '../../src/errors.js';

/** Runs `action` (sync or async) and returns what it threw or rejected with; fails if it succeeded. */
export async function failureOf(action: () => unknown): Promise<unknown> {
  try {
    await action();
  } catch (error) {
    return error;
  }
  throw new Error('expected the action to fail, but it succeeded');
}

/** Asserts that `action` fails with a JweError of `code`, and returns that error. */
export async function expectJweError(action: () => unknown, code: JweErrorCode): Promise<JweError> {
  const error = await failureOf(action);
  if (!isJweError(error)) {
    throw new Error(`expected a JweError ${code}, got ${String(error)}`, { cause: error });
  }
  expect(error.code).toBe(code);
  expect(error).not.toBeInstanceOf(RangeError);
  return error;
}
