/**
 * Text from others (a hostile server's tool descriptions) made safe to print on a terminal: every
 * control character but tab, line feed and carriage return (C0, DEL, C1: what starts an escape
 * sequence that retitles the window, clears the screen or rewrites what was printed) becomes a
 * visible symbol: C0 its Control Pictures sign (ESC is `␛`), DEL `␡`, C1 `�`.
 */

/** `text` with its control characters made visible, and how many were. */
export const visibleControls = (text: string): { readonly text: string; readonly replaced: number } => {
  let out = '';
  let from = 0;
  let replaced = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const control = (c < 0x20 && c !== 9 && c !== 10 && c !== 13) || c === 0x7f || (c >= 0x80 && c <= 0x9f);
    if (!control) continue;
    out += text.slice(from, i) + (c < 0x20 ? String.fromCharCode(0x2400 + c) : c === 0x7f ? '\u2421' : '\ufffd');
    from = i + 1;
    replaced += 1;
  }
  return replaced === 0 ? { text, replaced } : { text: out + text.slice(from), replaced };
};
