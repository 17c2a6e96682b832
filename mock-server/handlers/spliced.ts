// A view serialised once (generated/runtime/serialized-json.ts) stands in an answer for the value
// it serialises to: the answer's encoding splices its bytes in where the value goes.
import type { SerializedJson } from '../../generated/runtime/serialized-json.js';

export function spliced<Value>(view: SerializedJson<Value> | Value): Value {
  return view as Value;
}
