/**
 * Control characters in text people send (QUALITY 12). NUL cannot be stored in PostgreSQL text at
 * all (a 500 before this guard), and the other C0 controls and DEL have no place in a name, an
 * e-mail, a message or a report; tab, line feed and carriage return are ordinary text.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point.
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

export function hasControlCharacter(text: string): boolean {
  return CONTROL_CHARACTER.test(text);
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point.
const LINE_CONTROL = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point.
const LINE_CONTROL_BUT_LINE_FEED = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u2028\u2029]/;

/**
 * Stricter, for text that goes into another format whole (a quedada's fields in an `.ics`:
 * QUALITY 37): every C0 control — tab and carriage return included —, DEL, the C1 controls and
 * the Unicode line and paragraph separators; a line feed only where `isMultiline` (a note).
 */
export function hasLineControlCharacter(text: string, options: { isMultiline?: boolean } = {}): boolean {
  return (options.isMultiline ? LINE_CONTROL_BUT_LINE_FEED : LINE_CONTROL).test(text);
}

/** The Spanish answer naming the field (its dotted path, e.g. `location.city`). */
export function controlCharacterMessage(field: string): string {
  return field ? `El campo ${field} contiene caracteres no permitidos` : 'El texto contiene caracteres no permitidos';
}

/**
 * The dotted path of the first string (or object key) holding a control character in a parsed
 * JSON-like value, or undefined when there is none. Depth is bounded, as JSON bodies are.
 */
export function findControlCharacter(value: unknown, path = '', depth = 0): string | undefined {
  if (typeof value === 'string') return hasControlCharacter(value) ? path : undefined;
  if (value === null || typeof value !== 'object' || depth > 32) return undefined;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const found = findControlCharacter(value[index], path ? `${path}.${index}` : String(index), depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    const keyPath = path ? `${path}.${key}` : key;
    if (hasControlCharacter(key)) return path || 'clave';
    const found = findControlCharacter(item, keyPath, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}
