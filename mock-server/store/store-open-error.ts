// A store that cannot be opened as asked: an engine spec that is not understood, a file that is
// not a sandbox database or is of a newer schema, a driver that is not installed. The command
// line answers it with exit status 2 and the message.
export class StoreOpenError extends Error {
  override readonly name = 'StoreOpenError';
}
