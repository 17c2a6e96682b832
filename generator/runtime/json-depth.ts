// How deep a JSON text nests its arrays and objects. JSON.parse takes any depth, but
// JSON.stringify recurses: a free-form object a few thousand levels deep (a webhook test
// payload) would be stored, then fail to serialise in every view of it, the client's event list,
// the inspector and the snapshot export among them. Each family's contract bounds the depth
// (info.x-json-depth-limit); a body beyond it is refused before anything stores it, by the kit's
// mock and by the generated body parser alike.

/** Whether `text`, well-formed JSON, nests arrays and objects more than `limit` levels deep. */
export function nestsDeeperThan(text: string, limit: number): boolean {
  // Each level takes an opening and a closing bracket: a shorter text cannot reach the limit,
  // which spares every small request the scan.
  if (text.length <= 2 * limit) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i += 1;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      depth += 1;
      if (depth > limit) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth -= 1;
  }
  return false;
}
