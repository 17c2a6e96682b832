// The ApiError a generated-client call fails with; fails the test when the call succeeds.
import { ApiError } from '../../../generated/exchange-v3/client.js';

export async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}
