// A documentation page (docs/contracts.md) embeds generated sections between
// `<!-- generated:<name>:start -->` and `<!-- generated:<name>:end -->` markers; this puts the
// current text between them.
export function embedSections(page: { path: string; text: string }, sections: Record<string, string>): string {
  let text = page.text;
  for (const [name, body] of Object.entries(sections)) {
    const start = `<!-- generated:${name}:start -->`;
    const end = `<!-- generated:${name}:end -->`;
    const from = text.indexOf(start);
    const to = text.indexOf(end);
    if (from < 0 || to < from) throw new Error(`${page.path} lacks the ${start} … ${end} markers`);
    text = `${text.slice(0, from + start.length)}\n${body}\n${text.slice(to)}`;
  }
  return text;
}
