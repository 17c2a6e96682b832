// The README embeds generated sections between `<!-- generated:<name>:start -->` and
// `<!-- generated:<name>:end -->` markers; this puts the current text between them.
export function embedInReadme(readme: string, sections: Record<string, string>): string {
  let text = readme;
  for (const [name, body] of Object.entries(sections)) {
    const start = `<!-- generated:${name}:start -->`;
    const end = `<!-- generated:${name}:end -->`;
    const from = text.indexOf(start);
    const to = text.indexOf(end);
    if (from < 0 || to < from) throw new Error(`README.md lacks the ${start} … ${end} markers`);
    text = `${text.slice(0, from + start.length)}\n${body}\n${text.slice(to)}`;
  }
  return text;
}
