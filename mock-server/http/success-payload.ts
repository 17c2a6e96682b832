// The payload of a v3 success answer as the mock's handlers and a test's overrides give it:
// the operation's `result`, which the platform wraps in the envelope.

/**
 * A v3 operation's `result`, without what the generic envelope adds to it: SuccessEnvelope types
 * `result` as any object, array or null, and each operation narrows it by intersection, which
 * leaves an index signature (hiding misspelt fields, and refusing an interface, which has none)
 * and an array branch no result has.
 */
export type OwnResult<Result> = Result extends readonly unknown[] ? never : Result extends object ? WithoutIndexSignature<Result> : Result;

type WithoutIndexSignature<T> = { [Key in keyof T as string extends Key ? never : Key]: T[Key] };
