// A PostgreSQL URL as messages and the banner show it: its password replaced by ***, whether it
// is given as the user's (`user:secret@`) or as the `password` query parameter (`?password=secret`).
export function withoutPassword(url: string): string {
  return withoutUserPassword(url).replace(/([?&]password=)[^&#]*/g, '$1***');
}

function withoutUserPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@');
  }
}
