// The frame of every /docs page: one stylesheet, a navigation bar, no external URL.
import { docsContracts } from './specs.js';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** `base` is where the docs are mounted (/docs); `head` and `scripts` are trusted HTML. */
export function page(base: string, title: string, body: string, extra: { head?: string; scripts?: string } = {}): string {
  const links = [
    ...docsContracts.map((contract) => [`${base}/${contract}`, contract] as const),
    [`${base}/machines`, 'state machines'],
    [`${base}/assumptions`, 'assumptions'],
  ];
  const nav = links.map(([href, label]) => `<a href="${escapeHtml(href)}">${escapeHtml(label)}</a>`).join('\n    ');
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)} · exchange-api-kit</title>
  <link rel="icon" href="${base}/assets/favicon-32x32.png">
  ${extra.head ?? ''}
  <link rel="stylesheet" href="${base}/assets/docs.css">
</head>
<body>
  <nav class="docs-nav">
    <strong>exchange-api-kit</strong>
    ${nav}
  </nav>
  <main>
${body}
  </main>
  ${extra.scripts ?? ''}
</body>
</html>
`;
}
