// A store that cannot be opened as asked: an engine spec that is not understood, a file that is
// not a sandbox database or is of a newer schema, a driver that is not installed, a database whose
// sandbox another mock holds, a database server that refuses the user or has no such database. The command line answers it with exit status 2 and the message; a
// database it cannot reach, with exit status 1.
export class StoreOpenError extends Error {
  override readonly name = 'StoreOpenError';
}

/** A database that is there but cannot be reached: worth retrying (exit 1), unlike a bad spec. */
export class StoreUnreachableError extends Error {
  override readonly name = 'StoreUnreachableError';
}
