// A view serialised once (generated/runtime/serialized-json.ts) stands in an answer for the value
// it serialises to: the answer's encoding splices its bytes in where the value goes.
import { SerializedJson, serializedArray } from '../../generated/runtime/serialized-json.js';

export function spliced<Value>(view: SerializedJson<Value> | Value): Value {
  return view as Value;
}

/**
 * A list of views: spliced as one run of bytes when each was serialised once (serializedArray
 * joins them and keeps the join while the page stays the same), else each view on its own.
 */
export function splicedList<Value>(views: readonly (SerializedJson<Value> | Value)[]): Value[] {
  if (views.every((view): view is SerializedJson<Value> => view instanceof SerializedJson)) return serializedArray(views) as unknown as Value[];
  return views as Value[];
}
