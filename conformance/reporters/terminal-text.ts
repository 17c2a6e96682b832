// Text a server sent, made safe to print on a terminal. A reason quotes the server's own error
// message, and written raw its control characters would act on the terminal: ESC sequences
// recolour, move the cursor or retitle the window, bidi controls reorder what is shown. Each is
// shown escaped as \uXXXX instead, so the line says what the server really sent.

// C0 controls, DEL, C1 controls (U+009B is a one-byte CSI), and the bidi marks, embeddings,
// overrides and isolates.
const controls = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function escapeControls(text: string): string {
  return text.replace(controls, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
